// The leaderboard on the fixture tree: one table per (hardware, W), shards of one run merged into
// one row, untrusted names escaped, every cell linked to the problems behind it; a group judged on
// the simulated node scores pass@k, says nothing was timed, and never shows a speed.
#include "src/leaderboard/leaderboard.h"

#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "src/common/error.h"
#include "src/leaderboard/cells.h"
#include "src/leaderboard/escape.h"
#include "tests/leaderboard/synthetic_runs.h"
#include "tests/score/fixture.h"

namespace pkb::leaderboard {
namespace {

Leaderboard fixture_board() { return build_leaderboard(test::fixture_dir("tree"), 1, 100); }

TEST(Leaderboard, NeverRanksDifferentHardwareOrWorldTogether) {
  const Leaderboard board = fixture_board();
  ASSERT_EQ(board.groups.size(), 3u);
  EXPECT_EQ(board.groups[0].hardware, "8x NVIDIA H100");
  EXPECT_EQ(board.groups[1].hardware, "8x NVIDIA H200");
  EXPECT_EQ(board.groups[1].world, "4");
  EXPECT_EQ(board.groups[2].hardware, "8x NVIDIA H200");
  EXPECT_EQ(board.groups[2].world, "8");
  for (const auto& group : board.groups)
    for (const auto& entry : group.entries)
      EXPECT_EQ(entry.score.pool.hardware_key, group.hardware) << entry.model;
}

TEST(Leaderboard, MergesShardsOfOneRunIntoOneRow) {
  const Leaderboard board = fixture_board();
  const Group& h200 = board.groups[2];
  ASSERT_EQ(h200.entries.size(), 2u);
  const Entry& model_a = h200.entries[0];  // fast_1@2 ties at 0.5; pass@2 1.0 against 0.5
  EXPECT_EQ(model_a.model, "replay:model-a");
  EXPECT_EQ(model_a.dirs.size(), 2u);
  EXPECT_EQ(model_a.score.overall.samples, 4);
  EXPECT_EQ(h200.k, 2);
  // p_all: 2 of 2 correct at 1.8 and 1.3; p_none: 1 of 2 correct at 0.9.
  EXPECT_NEAR(*model_a.score.overall.find("pass@1")->value, (1 + 0.5) / 2, 1e-12);
  EXPECT_NEAR(*model_a.score.overall.find("fast_1@2")->value, (1 + 0) / 2.0, 1e-12);
  EXPECT_NEAR(*model_a.score.overall.find("fast_1.5@2")->value, (1 + 0) / 2.0, 1e-12);
}

TEST(Leaderboard, EscapesModelNamesInBothFormats) {
  const Leaderboard board = fixture_board();
  const std::string html = render_html(board), markdown = render_markdown(board);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(markdown.find("<script"), std::string::npos);
  EXPECT_NE(html.find("evil &lt;script&gt;alert(1)&lt;/script&gt; | *model* b"), std::string::npos);
  EXPECT_NE(markdown.find("evil &lt;script&gt;alert\\(1\\)&lt;/script&gt; \\| \\*model\\* b"),
            std::string::npos);
  EXPECT_EQ(html_escape("a\"b'c&"), "a&quot;b&#39;c&amp;");
}

TEST(Leaderboard, HtmlIsSelfContainedWithAChartAndLinkedCells) {
  const std::string html = render_html(fixture_board());
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_NE(html.find("<polyline class=\"series\""), std::string::npos);
  // Every cell link has its anchor: href="#g2-r0-m1" and id="g2-r0-m1".
  std::size_t links = 0;
  for (std::size_t at = html.find("href=\"#"); at != std::string::npos; at = html.find("href=\"#", at + 1)) {
    const std::size_t end = html.find('"', at + 7);
    const std::string anchor = html.substr(at + 7, end - at - 7);
    EXPECT_NE(html.find("id=\"" + anchor + "\""), std::string::npos) << anchor;
    ++links;
  }
  EXPECT_GE(links, 4u * 5u);  // 4 rows x 5 metric cells, plus the category cells
}

TEST(Leaderboard, MarkdownHasOneTablePerGroupWithIntervals) {
  const std::string markdown = render_markdown(fixture_board());
  EXPECT_NE(markdown.find("## 8x NVIDIA H100, W 8"), std::string::npos);
  EXPECT_NE(markdown.find("## 8x NVIDIA H200, W 4"), std::string::npos);
  EXPECT_NE(markdown.find("## 8x NVIDIA H200, W 8"), std::string::npos);
  EXPECT_NE(markdown.find("| 1 | replay:model\\-a | bf16, dims test, 1 turn, 2026\\-11\\-30 | 2/2 | 4 | [0.75 ["),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("<a id=\"g2-r1\"></a>"), std::string::npos);
}

// The `turns` run (tests/score/turn_score_test.cpp has its values by hand) joins model-a and
// model-b on 8x H200, W 8: that group alone gets the by-turn table and chart, and the runs of one
// turn show their one value. In the chart, x = 50 + 570 (t - 1) / 2 and y = 20 + 260 (1 - value).
TEST(Leaderboard, ShowsPassAndFastByTurnWhereARunHasTurns) {
  const Leaderboard board = build_leaderboard(test::copy_tree_with_turns(), 1, 100);
  ASSERT_EQ(board.groups.size(), 3u);
  EXPECT_EQ(group_turns(board.groups[0]), 1);
  EXPECT_EQ(group_turns(board.groups[2]), 3);
  const std::string markdown = render_markdown(board);
  const std::string heading = "### By turn (turn t scores each sample's first t answers)";
  ASSERT_NE(markdown.find(heading), std::string::npos) << markdown;
  EXPECT_EQ(markdown.find(heading), markdown.rfind(heading)) << "only the group with turns";
  EXPECT_LT(markdown.find("## 8x NVIDIA H200, W 8"), markdown.find(heading));
  EXPECT_NE(markdown.find("| model | turns | pass@1 by turn | fast_1@1 by turn |\n"),
            std::string::npos);
  EXPECT_NE(markdown.find("| replay:fixture\\-turns | 3 | 0.25 \u2192 0.62 \u2192 0.75 | "
                          "0.12 \u2192 0.50 \u2192 0.62 |\n"),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("| replay:model\\-a | 1 | 0.75 | 0.50 |\n"), std::string::npos)
      << markdown;

  const std::string html = render_html(board);
  EXPECT_NE(html.find("<td class=\"num\">0.25 \u2192 0.62 \u2192 0.75</td>"), std::string::npos);
  ASSERT_EQ(html.find("<svg class=\"turn-chart\""), html.rfind("<svg class=\"turn-chart\""));
  EXPECT_NE(html.find("data-metric=\"pass@1\" fill=\"none\" stroke-width=\"2\" "
                      "stroke-dasharray=\"none\""),
            std::string::npos);
  EXPECT_NE(html.find("points=\"50.0,215.0 335.0,117.5 620.0,85.0\""), std::string::npos) << html;
  EXPECT_NE(html.find("points=\"50.0,247.5 335.0,150.0 620.0,117.5\""), std::string::npos) << html;
  EXPECT_NE(html.find("<title>replay:fixture-turns: fast_1@1 after turn 2 = 0.50</title>"),
            std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
}

TEST(Leaderboard, ShowsNoTurnsWhereNoRunHasThem) {
  const Leaderboard board = fixture_board();
  EXPECT_EQ(render_markdown(board).find("By turn"), std::string::npos);
  const std::string html = render_html(board);
  EXPECT_EQ(html.find("By turn"), std::string::npos);
  EXPECT_EQ(html.find("turn-chart"), std::string::npos);
}

// The fixture's W = 4 run as if the simulated node had judged it: same verdicts, nothing timed.
std::filesystem::path copy_tree_judged_on_the_simulated_node() {
  const std::filesystem::path root = test::copy_fixture("tree");
  const std::filesystem::path dir = root / "h200-w4" / "model-a";
  nlohmann::json run = nlohmann::json::parse(test::read_text(dir / "run.json"));
  run["hardware_key"] = "simulated node";
  run["fingerprint"]["judge"] = "sim";
  test::write_text(dir / "run.json", run.dump());
  std::istringstream lines(test::read_text(dir / "samples.jsonl"));
  std::string line, out;
  while (std::getline(lines, line)) {
    nlohmann::json record = nlohmann::json::parse(line);
    if (record["status"] == "correct" || record["status"] == "incorrect") {
      if (!record["eval"].is_object()) record["eval"] = {{"stage", "done"}, {"trials", nlohmann::json::array()}};
      record["eval"]["judged_by"] = "sim";
      record["timing"] = nullptr;
      record["speedup"] = nullptr;
    }
    out += record.dump() + "\n";
  }
  test::write_text(dir / "samples.jsonl", out);
  return root;
}

TEST(Leaderboard, ASimulatedGroupSaysNothingWasTimedAndStillScoresPass) {
  const Leaderboard board = build_leaderboard(copy_tree_judged_on_the_simulated_node(), 1, 100);
  const Group* simulated = nullptr;
  for (const auto& group : board.groups)
    if (group.hardware == "simulated node") simulated = &group;
  ASSERT_NE(simulated, nullptr);
  ASSERT_EQ(simulated->entries.size(), 1u);
  const auto& overall = simulated->entries[0].score.overall;
  EXPECT_GT(overall.simulated_records, 0);
  EXPECT_TRUE(overall.find("pass@1")->value.has_value());
  EXPECT_FALSE(overall.find("fast_1@1")->value.has_value());
  EXPECT_EQ(cell_text(overall, "fast_1@1"), "not timed");
  EXPECT_NE(cell_text(overall, "pass@1"), "not timed");
  const std::string markdown = render_markdown(board), html = render_html(board);
  EXPECT_NE(markdown.find("## simulated node, W 4\n\nJudged on the simulated node"), std::string::npos) << markdown;
  EXPECT_NE(html.find("<p class=\"note\">Judged on the simulated node"), std::string::npos);
  EXPECT_EQ(markdown.find("## 8x NVIDIA H200, W 8\n\nJudged"), std::string::npos) << "GPU groups carry no note";
}

// Compiled without a GPU: no verdict anywhere, so nothing to rank on and no row is ranked.
TEST(Leaderboard, RanksNoRowWhereNoProblemHasAVerdict) {
  const std::filesystem::path root = test::copy_fixture("tree").parent_path() / "nogpu-tree";
  std::filesystem::create_directories(root);
  std::filesystem::copy(test::fixture_dir("nogpu"), root / "nogpu", std::filesystem::copy_options::recursive);
  std::string records = test::read_text(root / "nogpu" / "samples.jsonl");
  for (std::size_t at = records.find("\"compile_error\""); at != std::string::npos; at = records.find("\"compile_error\""))
    records.replace(at, 15, "\"compiled\"");
  test::write_text(root / "nogpu" / "samples.jsonl", records);
  const Leaderboard board = build_leaderboard(root, 1, 20);
  ASSERT_EQ(board.groups.size(), 1u);
  EXPECT_TRUE(board.groups[0].problems.empty());
  EXPECT_EQ(ranked_count(board.groups[0]), 0u);
  const std::string markdown = render_markdown(board);
  EXPECT_NE(markdown.find("No problem has a verdict in this table (nothing was executed), so no row is ranked."),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("| unranked | "), std::string::npos);
}

TEST(Leaderboard, NamesTheInvalidDirectory) {
  const auto root = test::copy_fixture("tree");
  test::write_text(root / "h200" / "model-b" / "samples.jsonl", "{not json\n");
  try {
    build_leaderboard(root, 1, 10);
    FAIL() << "an invalid directory was accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()),
              (root / "h200" / "model-b").string() +
                  "/samples.jsonl:1: not valid JSON (a corrupt record; remove or repair the line)");
  }
}


// Fair ranking: a full run of a weak model and partial runs of strong ones on 8x H200
// (test::partial_runs_tree). Ranked on their own problems, the partial runs would come first; the
// table ranks on the 87 problems, so only the full runs are ranked and the partial ones follow,
// unranked, with what they lack.
TEST(Leaderboard, RanksOnlyRowsThatJudgedEveryProblemOfTheTable) {
  const Leaderboard board = build_leaderboard(test::partial_runs_tree(1), 1, 50);
  ASSERT_EQ(board.groups.size(), 2u);
  const Group& gpu = board.groups[0];
  ASSERT_EQ(gpu.entries.size(), 4u);
  EXPECT_EQ(gpu.problems.size(), 87u);
  EXPECT_EQ(ranked_count(gpu), 2u);
  EXPECT_EQ(gpu.entries[0].model, "openai:gpt-5.1-codex-max-2026-11-20-preview");
  EXPECT_EQ(gpu.entries[1].model, "openai:gpt-5.1-codex-max-2026-11-20-preview");
  EXPECT_EQ(gpu.entries[2].model, "google:gemini-3-pro");  // more problems first among the unranked
  EXPECT_FALSE(gpu.entries[2].ranked);
  EXPECT_EQ(gpu.entries[2].coverage.judged.size(), 60u);
  EXPECT_EQ(gpu.entries[3].coverage.lacking.size(), 47u);
  // The partial runs' own means are higher: they would have been first.
  EXPECT_GT(*gpu.entries[3].score.overall.find("pass@1")->value, *gpu.entries[0].score.overall.find("pass@1")->value);

  const std::string markdown = render_markdown(board), html = render_html(board);
  EXPECT_NE(markdown.find("Ranks on 87 problems (001\\-087): every problem a row judged. 2 rows lack some "
                          "of them and are listed unranked, below."),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("| unranked | anthropic:claude\\-sonnet\\-4\\-5 | bf16, dims test, 1 turn, 2026\\-11\\-20 | "
                          "40/87, lacks 041\\-087 | 40 |"),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("| 1 | openai:gpt\\-5\\.1\\-codex\\-max\\-2026\\-11\\-20\\-preview | bf16, dims test, 1 turn, "
                          "2026\\-11\\-20 | 87/87 |"),
            std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">unranked</td><td class=\"name\">google:gemini-3-pro</td>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">60/87<br><span class=\"note\">lacks 061-087</span></td>"), std::string::npos);
  EXPECT_NE(html.find("only rows that judged all of them are ranked"), std::string::npos);
}

// Rows of one model differ in dims and date: each says so.
TEST(Leaderboard, EachRowSaysWhatTellsItApartFromItsModelsOtherRows) {
  const Leaderboard board = build_leaderboard(test::partial_runs_tree(1), 1, 50);
  const Group& gpu = board.groups[0];
  EXPECT_EQ(gpu.entries[0].run, "bf16, dims test, 1 turn, 2026-11-20");
  EXPECT_EQ(gpu.entries[1].run, "bf16, dims large, 1 turn, 2026-11-24");
  EXPECT_EQ(gpu.entries[0].distinct, "dims test, 2026-11-20");
  EXPECT_EQ(gpu.entries[1].distinct, "dims large, 2026-11-24");
  EXPECT_EQ(gpu.entries[2].distinct, "") << "the only row of its model";
  const std::string html = render_html(board);
  EXPECT_NE(html.find("<tspan x=\"4.0\" dy=\"0\">openai:gpt-5.1-codex-max-2026-11-20-</tspan><tspan x=\"4.0\" "
                      "dy=\"13\">preview (dims large, 2026-11-24)</tspan>"),
            std::string::npos)
      << "the map's row label, wrapped";
  EXPECT_NE(html.find("dy=\"0\">openai:gpt-5.1-codex-max-2026-11-20-preview (dims large, 2026-11-24)</tspan>"),
            std::string::npos)
      << "the fast_p chart's legend";
  EXPECT_NE(html.find("<td class=\"name\">openai:gpt-5.1-codex-max-2026-11-20-preview (dims test, 2026-11-20)</td>"),
            std::string::npos)
      << "the per-category table";
}

TEST(Leaderboard, ShowsEachMetricOnceAndOnlyTheKsTheRunsSupport) {
  const Leaderboard one = build_leaderboard(test::partial_runs_tree(1), 1, 20);
  EXPECT_EQ(table_metrics(one.groups[0]),
            (std::vector<std::string>{"pass@1", "fast_1@1", "fast_1.5@1", "geomean_speedup"}))
      << "no run has a speed-of-light fraction: no column of '-'";
  EXPECT_EQ(table_metrics(one.groups[1]), (std::vector<std::string>{"pass@1"})) << "simulated: nothing timed";
  const std::string html = render_html(one);
  EXPECT_NE(html.find("<th>samples</th><th>pass@1</th><th>fast_1@1</th>"), std::string::npos);
  const std::string markdown = render_markdown(one);
  const std::size_t simulated = markdown.find("## simulated node");
  ASSERT_NE(simulated, std::string::npos);
  EXPECT_LT(markdown.find("### Per category (pass@1 / fast_1@1)\n"), simulated);
  EXPECT_NE(markdown.find("### Per category (pass@1)\n", simulated), std::string::npos) << "nothing timed";
  const std::filesystem::path with_sol = test::partial_runs_tree(1);
  test::write_synthetic_run(with_sol, {"sol", "replay:sol-checked", "8x NVIDIA H200", 1, 87, 1, 50,
                                       "2026-11-22T00:00:00Z", "test", 87, 0.4});
  EXPECT_EQ(table_metrics(build_leaderboard(with_sol, 1, 20).groups[0]).back(), "median_sol_fraction");
  const Leaderboard three = build_leaderboard(test::partial_runs_tree(3), 1, 20);
  EXPECT_EQ(table_metrics(three.groups[0])[1], "pass@3");
  EXPECT_EQ(table_metrics(three.groups[0])[2], "fast_1@3");
}

TEST(Leaderboard, ListsOnlyProblemsWithSamples) {
  const Leaderboard board = build_leaderboard(test::partial_runs_tree(1), 1, 20);
  const std::string markdown = render_markdown(board);
  const std::size_t section = markdown.find("#### replay:examples/replay");
  ASSERT_NE(section, std::string::npos) << markdown;
  EXPECT_NE(markdown.find("Lists the 5 problems with samples; 82 of the run's problems have none and are not "
                          "listed.",
                          section),
            std::string::npos);
  EXPECT_NE(markdown.find("| 005\\_problem |", section), std::string::npos);
  EXPECT_EQ(markdown.find("| 006\\_problem |", section), std::string::npos);
}

}  // namespace
}  // namespace pkb::leaderboard
