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

}  // namespace
}  // namespace pkb::leaderboard
