// index.html in headless Chromium (Debian's `chromium`, flags for a closed network): the DOM holds
// the table text and both charts (a run with refinement turns is added to the tree), and a
// screenshot is not blank. Then a board a user would publish (long model names, partial runs, a
// GPU and a simulated table) measured as laid out at 1280 px by a test-only page
// (data/measure.html) that loads it in a frame: no sideways scroll, no duplicate header cell, every
// SVG text inside its SVG, a problem map per table. Skips with the reason where chromium is absent.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "src/common/subprocess.h"
#include "src/leaderboard/leaderboard.h"
#include "tests/leaderboard/synthetic_runs.h"
#include "tests/score/fixture.h"

namespace pkb::leaderboard {
namespace {
namespace fs = std::filesystem;

constexpr double kBrowserTimeoutS = 90;

std::string find_chromium() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"})
    if (std::string path = find_program(name); !path.empty()) return path;
  return "";
}

ProcessResult run_chromium(const std::string& chromium, const fs::path& profile,
                           const std::vector<std::string>& extra) {
  std::vector<std::string> argv = {chromium, "--headless", "--no-sandbox", "--disable-gpu",
                                   "--no-first-run", "--disable-background-networking",
                                   "--disable-dev-shm-usage", "--user-data-dir=" + profile.string()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return run_process(argv, "", kBrowserTimeoutS);
}

TEST(LeaderboardBrowser, RendersTheTablesAndANonBlankScreenshot) {
  const std::string chromium = find_chromium();
  if (chromium.empty())
    GTEST_SKIP() << "chromium is not installed (apt install chromium): the page was not opened in a browser";
  const fs::path out = test::copy_fixture("tree").parent_path() / "board";
  write_leaderboard(build_leaderboard(test::copy_tree_with_turns(), 1, 100), out);
  const std::string url = "file://" + (out / "index.html").string();

  const ProcessResult dom = run_chromium(chromium, out / "profile", {"--dump-dom", url});
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  EXPECT_NE(dom.out.find("<table class=\"board\">"), std::string::npos);
  EXPECT_NE(dom.out.find("<td class=\"name\">replay:model-a</td><td><span class=\"nw\">bf16</span>, "
                         "<span class=\"nw\">dims test</span>, <span class=\"nw\">1 turn</span>, "
                         "<span class=\"nw\">2026-11-30</span></td>"),
            std::string::npos)
      << dom.out.substr(0, 2000);
  EXPECT_NE(dom.out.find("8x NVIDIA H100, W 8"), std::string::npos);
  EXPECT_NE(dom.out.find("evil &lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_EQ(dom.out.find("<script"), std::string::npos);  // the name stayed text
  EXPECT_NE(dom.out.find("<polyline class=\"series\""), std::string::npos);
  // The run with refinement turns: its by-turn table and the turn chart, both drawn as SVG.
  EXPECT_NE(dom.out.find("<td class=\"num\">0.25 \u2192 0.62 \u2192 0.75</td>"), std::string::npos);
  EXPECT_NE(dom.out.find("<svg class=\"turn-chart\""), std::string::npos);
  EXPECT_NE(dom.out.find("<polyline class=\"turn-series\" data-metric=\"fast_1@1\""),
            std::string::npos);

  // A blank page's screenshot is the yardstick: the leaderboard's must be much larger (PNG
  // compresses a single colour to almost nothing).
  test::write_text(out / "blank.html", "<!DOCTYPE html><html><body></body></html>");
  const fs::path shot = out / "board.png", blank = out / "blank.png";
  for (const auto& [page, png] : {std::make_pair(out / "index.html", shot), std::make_pair(out / "blank.html", blank)}) {
    const ProcessResult run = run_chromium(chromium, out / "profile",
                                           {"--screenshot=" + png.string(), "--window-size=1200,900",
                                            "file://" + page.string()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    ASSERT_TRUE(fs::exists(png)) << run.err;
  }
  const auto shot_bytes = fs::file_size(shot), blank_bytes = fs::file_size(blank);
  EXPECT_EQ(test::read_text(shot).substr(1, 3), "PNG");
  EXPECT_GT(shot_bytes, 3 * blank_bytes) << "screenshot " << shot_bytes << " B, blank page " << blank_bytes << " B";
}

// The board of the issue that asked for fair ranking: on 8x H200, ten models with long names, two
// of them on 40 and 60 problems only, and one model at two dims; on the simulated node, a full run
// and one cut short after 5 of its 87 problems. One sample per problem: k = 1.
std::filesystem::path publishable_tree() {
  const fs::path root = test::copy_fixture("tree").parent_path() / "publishable";
  const std::string gpu = "8x NVIDIA H200", sim = "simulated node";
  const std::vector<test::SyntheticRun> runs = {
      {"h200/codex", "openai:gpt-5.1-codex-max-2026-11-20-preview", gpu, 1, 87, 1, 45},
      {"h200/codex-large", "openai:gpt-5.1-codex-max-2026-11-20-preview", gpu, 1, 87, 1, 40,
       "2026-11-24T08:00:00Z", "large"},
      {"h200/sonnet-40", "anthropic:claude-sonnet-4-5-20260929-extended-thinking-max-budget", gpu, 1, 40, 1, 95},
      {"h200/gemini-60", "google:gemini-3-pro-preview-2026-10-28-long-context", gpu, 1, 60, 1, 80},
      {"h200/replay", "replay:examples/replay", gpu, 1, 87, 1, 30},
      {"h200/deepseek", "deepseek:deepseek-v4-reasoner-2026-09-01", gpu, 1, 87, 1, 35},
      {"h200/qwen", "qwen:qwen3.5-coder-480b-a35b-instruct-fp8-dynamic", gpu, 1, 87, 1, 25},
      {"h200/llama", "meta:llama-5-405b-instruct-turbo-2026", gpu, 1, 87, 1, 20},
      {"h200/mistral", "mistral:devstral-large-2026-10", gpu, 1, 87, 1, 15},
      {"h200/grok", "xai:grok-5-code-fast-beta-2026-11-01", gpu, 1, 87, 1, 10},
      {"sim/codex", "openai:gpt-5.1-codex-max-2026-11-20-preview", sim, 1, 87, 1, 50},
      {"sim/replay-cut", "replay:examples/replay", sim, 1, 87, 1, 60, "2026-11-21T09:00:00Z", "test", 5},
  };
  for (const auto& run : runs) test::write_synthetic_run(root, run);
  return root;
}

// The JSON measure.html wrote into #verdict, from the DOM chromium dumped.
nlohmann::json verdict_of(const std::string& dom) {
  const std::string open = "<pre id=\"verdict\">";
  const std::size_t start = dom.find(open);
  if (start == std::string::npos) return nullptr;
  const std::size_t end = dom.find("</pre>", start);
  std::string text = dom.substr(start + open.size(), end - start - open.size());
  for (const auto& [from, to] : {std::make_pair(std::string("&lt;"), std::string("<")),
                                 std::make_pair(std::string("&gt;"), std::string(">")),
                                 std::make_pair(std::string("&amp;"), std::string("&"))})
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  return nlohmann::json::parse(text, nullptr, false);
}

TEST(LeaderboardBrowser, APublishableBoardFitsA1280PxWindow) {
  const std::string chromium = find_chromium();
  if (chromium.empty())
    GTEST_SKIP() << "chromium is not installed (apt install chromium): the page was not laid out in a browser";
  const fs::path root = publishable_tree();
  const Leaderboard board = build_leaderboard(root, 1, 100);
  const fs::path out = root.parent_path() / "publishable-board";
  write_leaderboard(board, out);
  fs::copy_file(fs::path(PKB_SOURCE_DIR) / "tests" / "leaderboard" / "data" / "measure.html", out / "measure.html");

  const ProcessResult dom =
      run_chromium(chromium, out / "profile",
                   {"--allow-file-access-from-files", "--window-size=1280,800", "--virtual-time-budget=10000",
                    "--dump-dom", "file://" + (out / "measure.html").string()});
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  const nlohmann::json verdict = verdict_of(dom.out);
  ASSERT_TRUE(verdict.is_object()) << dom.out.substr(0, 3000);

  EXPECT_GE(verdict["client_width"].get<int>(), 1200) << verdict.dump(1);
  EXPECT_LE(verdict["scroll_width"].get<int>(), verdict["client_width"].get<int>())
      << "the page scrolls sideways at 1280 px";
  EXPECT_TRUE(verdict["duplicate_headers"].empty()) << verdict["duplicate_headers"].dump(1);
  EXPECT_GT(verdict["texts_checked"].get<int>(), 60);  // 2 maps, the fast_p chart: names, categories, legends, ticks
  EXPECT_TRUE(verdict["cut_texts"].empty()) << verdict["cut_texts"].dump(1);
  EXPECT_TRUE(verdict["svgs_past_viewport"].empty()) << verdict["svgs_past_viewport"].dump(1);
  // Every long name stands whole in the fast_p chart's legend (wrapped lines joined).
  const std::string legends = verdict["legend_texts"].dump();
  for (const char* name : {"anthropic:claude-sonnet-4-5-20260929-extended-thinking-max-budget",
                           "openai:gpt-5.1-codex-max-2026-11-20-preview"})
    EXPECT_NE(legends.find(name), std::string::npos) << name << " cut in " << legends;

  // A map per table, a row per model, a cell per (model, problem), each with its <title>.
  ASSERT_EQ(verdict["sections"].size(), board.groups.size());
  for (std::size_t g = 0; g < board.groups.size(); ++g) {
    const nlohmann::json& section = verdict["sections"][g];
    const Group& group = board.groups[g];
    EXPECT_EQ(section["maps"], 1) << section.dump();
    EXPECT_EQ(section["map_id"], "problem-map:g" + std::to_string(g));
    EXPECT_EQ(section["board_rows"].get<std::size_t>(), group.entries.size());
    EXPECT_EQ(section["map_rows"].get<std::size_t>(), group.entries.size());
    EXPECT_EQ(section["cells"].get<std::size_t>(), group.entries.size() * test::kAllProblems);
    EXPECT_EQ(section["cells_with_title"], section["cells"]);
    EXPECT_GE(section["smallest_cell_px"].get<double>(), 6.0) << "cells too small to read: " << section.dump();
  }
  // Per-problem tables list only problems with samples: the simulated run cut short has 5.
  const Group& simulated = board.groups[1];
  ASSERT_EQ(simulated.hardware, "simulated node");
  for (const auto& entry : simulated.entries)
    EXPECT_EQ(verdict["problem_rows"][entry.anchor].get<int>(), entry.model == "replay:examples/replay" ? 5 : 87)
        << entry.model;

  // The fair rule, as the page shows it: the partial runs are listed last, unranked.
  const Group& gpu = board.groups[0];
  ASSERT_EQ(gpu.entries.size(), 10u);
  EXPECT_EQ(ranked_count(gpu), 8u);
  EXPECT_EQ(gpu.entries[8].model, "google:gemini-3-pro-preview-2026-10-28-long-context");
  EXPECT_EQ(gpu.entries[9].coverage.judged.size(), 40u);

  // For a person to look at: the top of the page at 1280 x 800.
  const fs::path shot = out / "board-1280.png";
  const ProcessResult screenshot = run_chromium(
      chromium, out / "profile", {"--screenshot=" + shot.string(), "--window-size=1280,800",
                                  "file://" + (out / "index.html").string()});
  ASSERT_EQ(screenshot.exit_code, 0) << screenshot.err;
  EXPECT_TRUE(fs::exists(shot));
  std::cout << "screenshot: " << shot.string() << "\n";
}

}  // namespace
}  // namespace pkb::leaderboard
