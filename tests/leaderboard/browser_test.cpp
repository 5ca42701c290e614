// index.html in headless Chromium (Debian's `chromium`, flags for a closed network): the DOM holds
// the table text and both charts (a run with refinement turns is added to the tree), and a
// screenshot is not blank. Skips with the reason where chromium is absent.
#include <gtest/gtest.h>

#include <filesystem>

#include "src/common/subprocess.h"
#include "src/leaderboard/leaderboard.h"
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
  EXPECT_NE(dom.out.find("<td>replay:model-a</td><td>8x NVIDIA H200</td><td>8</td>"), std::string::npos)
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

}  // namespace
}  // namespace pkb::leaderboard
