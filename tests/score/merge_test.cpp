// Merge rules: runs of equal settings pool their samples; different settings are refused naming
// the field and both values unless --allow-mixed, and then pooled only over the problems every run
// judged (a run lacking some is left out, named); a sample in two runs is an error.
#include "src/score/merge.h"

#include <gtest/gtest.h>

#include "src/common/error.h"
#include "src/score/coverage.h"
#include "src/score/score.h"
#include "tests/score/fixture.h"

namespace pkb::score {
namespace {
namespace fs = std::filesystem;
using test::read_text;
using test::write_text;

// Keeps lines [first, last] (1-based) of a copy of `basic`.
fs::path basic_lines(int first, int last) {
  const fs::path dir = test::copy_fixture("basic");
  const std::string text = read_text(dir / "samples.jsonl");
  std::string kept;
  std::size_t start = 0;
  for (int line = 1; start < text.size(); ++line) {
    const std::size_t end = text.find('\n', start);
    if (line >= first && line <= last) kept += text.substr(start, end - start + 1);
    start = end + 1;
  }
  write_text(dir / "samples.jsonl", kept);
  return dir;
}

void set_temperature(const fs::path& dir, const std::string& value) {
  std::string run = read_text(dir / "run.json");
  const std::string from = "\"temperature\": \"\"";
  run.replace(run.find(from), from.size(), "\"temperature\": " + value);
  write_text(dir / "run.json", run);
}

ScoreSettings settings() {
  ScoreSettings s;
  s.ks = {1, 3};
  s.ks_given = true;
  s.bootstrap = 50;
  return s;
}

TEST(Merge, PoolsRunsWithEqualSettings) {
  std::vector<results::ResultsDir> dirs = {results::load_results_dir(basic_lines(1, 5)),
                                           results::load_results_dir(basic_lines(6, 10))};
  const Score merged = compute_score(merge_dirs(dirs, false), settings());
  EXPECT_FALSE(merged.pool.mixed);
  EXPECT_EQ(merged.overall.samples, 9);
  EXPECT_NEAR(*merged.overall.find("pass@1")->value, 5.0 / 9, 1e-12);  // as the whole of basic
}

TEST(Merge, RefusesDifferentSettingsNamingFieldAndValues) {
  const fs::path second = basic_lines(6, 10);
  set_temperature(second, "0.7");
  std::vector<results::ResultsDir> dirs = {results::load_results_dir(basic_lines(1, 5)),
                                           results::load_results_dir(second)};
  try {
    merge_dirs(dirs, false);
    FAIL() << "different temperatures were merged";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()),
              second.string() + "/run.json: fingerprint.temperature is 0.7, but " + dirs[0].name +
                  "/run.json has \"\": different settings are not merged (--allow-mixed scores "
                  "them together)");
  }
}

TEST(Merge, AllowMixedKeepsEachRunsSamplesApart) {
  const fs::path second = test::copy_fixture("basic");  // the same samples, another temperature
  set_temperature(second, "0.7");
  std::vector<results::ResultsDir> dirs = {results::load_results_dir(test::fixture_dir("basic")),
                                           results::load_results_dir(second)};
  const Score mixed = compute_score(merge_dirs(dirs, true), settings());
  EXPECT_TRUE(mixed.pool.mixed);
  EXPECT_EQ(mixed.overall.samples, 18);
  EXPECT_EQ(mixed.problems[0].n, 6);
  EXPECT_NEAR(*mixed.overall.find("pass@1")->value, 5.0 / 9, 1e-12);
  EXPECT_EQ(mixed.notes.back(), "runs with different settings scored together (--allow-mixed)");
}

TEST(Merge, RefusesASamplePresentInTwoRuns) {
  std::vector<results::ResultsDir> dirs = {results::load_results_dir(basic_lines(1, 5)),
                                           results::load_results_dir(basic_lines(5, 10))};
  try {
    merge_dirs(dirs, false);
    FAIL() << "a duplicate sample was merged";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()), dirs[1].name +
                                             "/samples.jsonl:1: duplicate record for p_none sample 1 "
                                             "turn 0 (also at " +
                                             dirs[0].name + "/samples.jsonl:5)");
  }
}

TEST(Merge, RefusesDifferentHardware) {
  const fs::path second = basic_lines(6, 10);
  std::string run = read_text(second / "run.json");
  run.replace(run.find("8x NVIDIA H200"), 14, "8x NVIDIA H100");
  write_text(second / "run.json", run);
  std::vector<results::ResultsDir> dirs = {results::load_results_dir(basic_lines(1, 5)),
                                           results::load_results_dir(second)};
  EXPECT_THROW(merge_dirs(dirs, false), InputError);
}


// The fair-comparison rule (coverage.h): runs of different settings are pooled only over the same
// problems. basic judges p_all, p_none and p_some (p_empty has only an api_error).
TEST(Merge, AllowMixedLeavesOutARunThatLacksProblemsAndSaysWhat) {
  const fs::path partial = basic_lines(1, 3);  // p_all only
  set_temperature(partial, "0.7");
  std::vector<results::ResultsDir> dirs = {results::load_results_dir(test::fixture_dir("basic")),
                                           results::load_results_dir(partial)};
  const Score mixed = compute_score(merge_dirs(dirs, true), settings());
  EXPECT_EQ(mixed.overall.samples, 9) << "the partial run's 3 samples are left out";
  EXPECT_NEAR(*mixed.overall.find("pass@1")->value, 5.0 / 9, 1e-12);
  ASSERT_GE(mixed.notes.size(), 2u);
  EXPECT_EQ(mixed.notes[0], dirs[1].name +
                                " judged 1/3 of the problems the runs judged (lacks p_none, p_some): left "
                                "out, so every number here is over the same problems for every run");
}

TEST(Merge, AllowMixedRefusesRunsThatShareNoCompleteProblemSet) {
  const fs::path second = basic_lines(4, 6);  // p_none only
  set_temperature(second, "0.7");
  std::vector<results::ResultsDir> dirs = {results::load_results_dir(basic_lines(1, 3)),
                                           results::load_results_dir(second)};
  try {
    compute_score(merge_dirs(dirs, true), settings());
    FAIL() << "runs on disjoint problems were pooled";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()),
              "--allow-mixed: no run judged every problem the runs judged between them (2), so they "
              "cannot be compared on the same problems; score each alone");
  }
}

// Two shards of the other run: together they judged every problem, so they count as one run.
TEST(Merge, AllowMixedCountsShardsOfOneRunTogether) {
  const fs::path first_half = basic_lines(1, 5), second_half = basic_lines(6, 10);
  set_temperature(first_half, "0.7");
  set_temperature(second_half, "0.7");
  std::vector<results::ResultsDir> dirs = {results::load_results_dir(test::fixture_dir("basic")),
                                           results::load_results_dir(first_half),
                                           results::load_results_dir(second_half)};
  const Score mixed = compute_score(merge_dirs(dirs, true), settings());
  EXPECT_EQ(mixed.pool.input_sources, (std::vector<int>{0, 1, 1}));
  EXPECT_EQ(mixed.overall.samples, 18);
  for (const auto& note : mixed.notes)
    EXPECT_EQ(note.find("of the problems the runs judged"), std::string::npos) << note;
}

}  // namespace
}  // namespace pkb::score
