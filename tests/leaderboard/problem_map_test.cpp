// The models x problems map (src/leaderboard/problem_map.h) on the partial-runs tree: one per
// table, a cell per (row, problem) with its <title>, the best status of a problem's samples, speed
// shades only on timed tables, long labels wrapped. Its layout in a browser: browser_test.cpp.
#include "src/leaderboard/problem_map.h"

#include <gtest/gtest.h>

#include "tests/leaderboard/synthetic_runs.h"

namespace pkb::leaderboard {
namespace {

TEST(ProblemMap, DrawsAModelsByProblemsMapPerTable) {
  const Leaderboard board = build_leaderboard(test::partial_runs_tree(1), 1, 20);
  const std::string html = render_html(board);
  std::size_t maps = 0, cells = 0;
  for (std::size_t at = html.find("<svg class=\"problem-map\""); at != std::string::npos;
       at = html.find("<svg class=\"problem-map\"", at + 1))
    ++maps;
  for (std::size_t at = html.find("<rect class=\"cell\""); at != std::string::npos; at = html.find("<rect class=\"cell\"", at + 1))
    ++cells;
  EXPECT_EQ(maps, 2u);
  EXPECT_EQ(cells, (4u + 1u) * 87u);
  EXPECT_NE(html.find("id=\"problem-map\" data-table=\"g0\""), std::string::npos);
  EXPECT_NE(html.find("id=\"problem-map\" data-table=\"g1\""), std::string::npos);
  // The first-40 run never sampled 041: a white "not run" cell.
  EXPECT_NE(html.find("<title>041_problem (expert-parallel): not run</title>"), std::string::npos);
  // GPU cells give the speedup; simulated ones say it was not timed, and that table has no shades.
  EXPECT_NE(html.find("samples correct, best speedup "), std::string::npos);
  EXPECT_NE(html.find(" samples correct, speedup not timed</title>"), std::string::npos);
  const std::size_t sim_map = html.find("data-table=\"g1\"");
  EXPECT_EQ(html.find("correct, &gt;= 2x", sim_map), std::string::npos);
  EXPECT_NE(html.find("correct, &gt;= 2x"), std::string::npos);

  const Group& gpu = board.groups[0];
  const auto columns = map_columns(gpu);
  ASSERT_EQ(columns.size(), 87u);
  EXPECT_EQ(columns.front(), std::make_pair(std::string("application"), std::string("076_problem")));
  // A problem's best status: correct beats incorrect and errors.
  score::ProblemTally tally;
  tally.statuses = {{"runtime_error", 2}, {"correct", 1}, {"incorrect", 3}};
  EXPECT_EQ(best_status(&tally), "correct");
  tally.statuses = {{"compile_error", 1}, {"timeout", 1}};
  EXPECT_EQ(best_status(&tally), "timeout");
  tally.statuses = {{"compiled", 1}};
  EXPECT_EQ(best_status(&tally), "not executed");
  EXPECT_EQ(best_status(nullptr), "not run");
}

TEST(ProblemMap, WrapsLongLabelsAtSeparators) {
  EXPECT_EQ(wrap_label("openai:gpt-5.1-codex-max-2026-11-20-preview", 20),
            (std::vector<std::string>{"openai:gpt-5.1-", "codex-max-2026-11-", "20-preview"}));
  EXPECT_EQ(wrap_label("short", 20), (std::vector<std::string>{"short"}));
  EXPECT_EQ(wrap_label("abcdefghij", 4), (std::vector<std::string>{"abcd", "efgh", "ij"}));
}

}  // namespace
}  // namespace pkb::leaderboard
