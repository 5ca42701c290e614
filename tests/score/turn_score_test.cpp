// Scoring by refinement turn on the `turns` fixture (tests/score/data/README.md), against values
// computed by hand, and the rule that the last turn is the whole run.
#include "src/score/turn_score.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "src/common/error.h"
#include "src/score/score_report.h"
#include "tests/score/fixture.h"

namespace pkb::score {
namespace {

// Turn t uses each sample's first t answers (records with turn < t). n = 4 per problem at every
// turn (p_b sample 0's api_error is its second record; its first, a runtime_error, is scored).
//
//   sample   answers (speedup; * emulated)          correct from   fast_1 from   fast_1.5 from
//   p_a 0    correct 1.6 (stopped)                  1              1             1
//   p_a 1    compile_error, correct 1.2             2              2             -
//   p_a 2    incorrect, incorrect, correct 0.9      3              -             -
//   p_a 3    correct 0.8, correct 1.6               1              2             2
//   p_b 0    runtime_error, api_error               -              -             -
//   p_b 1    incorrect, compile_error, incorrect    -              -             -
//   p_b 2    format_error, correct 2.0*, corr. 1.3  2              3             -
//   p_b 3    incorrect, correct 1.5                 2              2             - (a tie)
//
// c (p_a, p_b) by turn: (2, 0), (3, 2), (4, 2); f_1: (1, 0), (3, 1), (3, 2); f_1.5: (1, 0), (2, 0),
// (2, 0). pass@1 = mean of c / 4; pass@2 = mean of 1 - C(4 - c, 2) / C(4, 2), C(4, 2) = 6:
//   c = 0: 0, c = 1: 1/2, c = 2: 5/6, c >= 3: 1.
//   pass@1:     (2/4 + 0) / 2 = 1/4     (3/4 + 2/4) / 2 = 5/8     (4/4 + 2/4) / 2 = 3/4
//   pass@2:     (5/6 + 0) / 2 = 5/12    (1 + 5/6) / 2 = 11/12     (1 + 5/6) / 2 = 11/12
//   fast_1@1:   (1/4 + 0) / 2 = 1/8     (3/4 + 1/4) / 2 = 1/2     (3/4 + 2/4) / 2 = 5/8
//   fast_1@2:   (1/2 + 0) / 2 = 1/4     (1 + 1/2) / 2 = 3/4       (1 + 5/6) / 2 = 11/12
//   fast_1.5@1: (1/4 + 0) / 2 = 1/8     (2/4 + 0) / 2 = 1/4       1/4
constexpr double kTolerance = 1e-9;
const std::vector<double> kPass1 = {1.0 / 4, 5.0 / 8, 3.0 / 4};
const std::vector<double> kPass2 = {5.0 / 12, 11.0 / 12, 11.0 / 12};
const std::vector<double> kFast1At1 = {1.0 / 8, 1.0 / 2, 5.0 / 8};
const std::vector<double> kFast1At2 = {1.0 / 4, 3.0 / 4, 11.0 / 12};
const std::vector<double> kFast15At1 = {1.0 / 8, 1.0 / 4, 1.0 / 4};

ScoreSettings turn_settings() {
  ScoreSettings settings;
  settings.ks = {1, 2};
  settings.ks_given = true;
  settings.ps = {0, 1, 1.5};
  settings.bootstrap = 100;
  return settings;
}

struct Scored {
  std::vector<results::ResultsDir> dirs;  // the pool points into these
  Score score;
};

Scored score_dir(const std::filesystem::path& dir, const ScoreSettings& settings) {
  Scored scored;
  scored.dirs.push_back(results::load_results_dir(dir));
  scored.score = compute_score(merge_dirs(scored.dirs, false), settings);
  return scored;
}

std::optional<double> at(const TurnScore& row, const std::string& metric) {
  const Estimate* estimate = row.group.find(metric);
  if (!estimate) ADD_FAILURE() << "turn " << row.turn << ": no metric " << metric;
  return estimate ? estimate->value : std::nullopt;
}

double value_at(const TurnScore& row, const std::string& metric) {
  const std::optional<double> value = at(row, metric);
  if (!value) ADD_FAILURE() << "turn " << row.turn << ": " << metric << " is null";
  return value.value_or(NAN);
}

TEST(TurnScore, MatchesHandComputedValuesPerTurn) {
  const Scored scored = score_dir(test::fixture_dir("turns"), turn_settings());
  const Score& score = scored.score;
  ASSERT_EQ(score.turns, 3);
  ASSERT_EQ(score.per_turn.size(), 3u);
  const std::vector<int> correct = {2, 5, 6};
  const std::vector<std::vector<int>> fast = {{2, 1, 1}, {5, 4, 2}, {6, 5, 2}};
  for (std::size_t index = 0; index < 3; ++index) {
    const TurnScore& row = score.per_turn[index];
    EXPECT_EQ(row.turn, static_cast<int>(index) + 1);
    EXPECT_EQ(row.group.samples, 8) << "turn " << row.turn;
    EXPECT_EQ(row.group.problems_scored, 2) << "turn " << row.turn;
    EXPECT_EQ(row.correct, correct[index]) << "turn " << row.turn;
    EXPECT_EQ(row.fast, fast[index]) << "turn " << row.turn;
    EXPECT_NEAR(value_at(row, "pass@1"), kPass1[index], kTolerance) << "turn " << row.turn;
    EXPECT_NEAR(value_at(row, "pass@2"), kPass2[index], kTolerance) << "turn " << row.turn;
    EXPECT_NEAR(value_at(row, "fast_0@1"), kPass1[index], kTolerance) << "turn " << row.turn;
    EXPECT_NEAR(value_at(row, "fast_1@1"), kFast1At1[index], kTolerance) << "turn " << row.turn;
    EXPECT_NEAR(value_at(row, "fast_1@2"), kFast1At2[index], kTolerance) << "turn " << row.turn;
    EXPECT_NEAR(value_at(row, "fast_1.5@1"), kFast15At1[index], kTolerance) << "turn " << row.turn;
    EXPECT_FALSE(row.group.find("pass@1")->low) << "per-turn rows are point estimates";
  }
}

// The last turn scores every record, so it must be the whole run to the bit, for a run with turns
// and for one without (T = 1: the single row is the whole run).
TEST(TurnScore, LastTurnEqualsTheWholeRun) {
  for (const char* fixture : {"turns", "basic"}) {
    ScoreSettings settings = turn_settings();
    settings.ks = {1, 3};
    const Scored scored = score_dir(test::fixture_dir(fixture), settings);
    const Score& score = scored.score;
    ASSERT_FALSE(score.per_turn.empty()) << fixture;
    EXPECT_EQ(score.turns, std::string(fixture) == "turns" ? 3 : 1);
    const TurnScore& last = score.per_turn.back();
    int compared = 0;
    for (const auto& overall : score.overall.metrics) {
      if (!is_at_k_metric(overall.name)) continue;
      EXPECT_EQ(at(last, overall.name), overall.value) << fixture << " " << overall.name;
      ++compared;
    }
    EXPECT_EQ(compared, 2 + 3 * 2) << fixture;
    EXPECT_EQ(last.group.samples, score.overall.samples) << fixture;
  }
  const Scored turns_scored = score_dir(test::fixture_dir("turns"), turn_settings());
  const Score& turns = turns_scored.score;
  EXPECT_NEAR(*turns.overall.find("pass@1")->value, kPass1.back(), kTolerance);
  EXPECT_NEAR(*turns.overall.find("fast_1@1")->value, kFast1At1.back(), kTolerance);
}

TEST(TurnScore, TakesTurnsFromTheFingerprintOrTheRecords) {
  const auto dir = test::copy_fixture("turns");
  std::string run_json = test::read_text(dir / "run.json");
  run_json.replace(run_json.find("\"turns\": 3"), 10, "\"turns\": 5");
  test::write_text(dir / "run.json", run_json);
  const Scored scored = score_dir(dir, turn_settings());
  const Score& declared = scored.score;
  ASSERT_EQ(declared.turns, 5);
  ASSERT_EQ(declared.per_turn.size(), 5u);
  // No record has turn >= 3: turns 4 and 5 keep turn 3's state.
  EXPECT_EQ(at(declared.per_turn[4], "pass@1"), at(declared.per_turn[2], "pass@1"));
  EXPECT_EQ(declared.per_turn[4].fast, declared.per_turn[2].fast);

  run_json.replace(run_json.find("\"turns\": 5"), 10, "\"turns\": 1");
  test::write_text(dir / "run.json", run_json);
  EXPECT_EQ(score_dir(dir, turn_settings()).score.turns, 3);  // the records reach turn index 2
}

TEST(TurnScore, RefusesAFingerprintTurnsThatIsNotAPositiveInteger) {
  const auto dir = test::copy_fixture("turns");
  std::string run_json = test::read_text(dir / "run.json");
  run_json.replace(run_json.find("\"turns\": 3"), 10, "\"turns\": \"3\"");
  test::write_text(dir / "run.json", run_json);
  try {
    score_dir(dir, turn_settings());
    FAIL() << "a string fingerprint.turns was accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()),
              dir.string() + "/run.json: fingerprint.turns: expected an integer >= 1, got \"3\"");
  }
}

// A sample whose first answer was an api_error is not scored until a later answer exists, so an
// early turn can have fewer samples than k: that pass@k is null there, not a crash or a guess.
TEST(TurnScore, LeavesAnAtKNullAtATurnWithFewerThanKSamples) {
  const auto dir = test::copy_fixture("turns");
  std::istringstream lines(test::read_text(dir / "samples.jsonl"));
  std::string line, rewritten;
  while (std::getline(lines, line)) {
    auto record = nlohmann::json::parse(line);
    if (record["problem"] == "p_b" && record["sample"] == 0)
      record["status"] = record["turn"] == 0 ? "api_error" : "runtime_error";
    rewritten += record.dump() + "\n";
  }
  test::write_text(dir / "samples.jsonl", rewritten);
  ScoreSettings settings = turn_settings();
  settings.ks = {1, 4};
  const Scored scored = score_dir(dir, settings);
  const Score& score = scored.score;
  EXPECT_EQ(score.per_turn[0].group.samples, 7);
  EXPECT_FALSE(at(score.per_turn[0], "pass@4"));
  EXPECT_FALSE(at(score.per_turn[0], "fast_1@4"));
  EXPECT_NEAR(value_at(score.per_turn[0], "pass@1"), (2.0 / 4 + 0) / 2, kTolerance);
  EXPECT_EQ(score.per_turn[1].group.samples, 8);
  EXPECT_NEAR(value_at(score.per_turn[1], "pass@4"), 1.0, kTolerance);  // both problems have c > 0
}

TEST(TurnScore, WritesPerTurnRowsAndACurveToJson) {
  const nlohmann::json doc =
      score_to_json(score_dir(test::fixture_dir("turns"), turn_settings()).score);
  ASSERT_EQ(doc["per_turn"].size(), 3u) << doc["per_turn"].dump();
  EXPECT_EQ(doc["curve"]["turns"], nlohmann::json({1, 2, 3}));
  for (std::size_t index = 0; index < 3; ++index) {
    const nlohmann::json& row = doc["per_turn"][index];
    EXPECT_EQ(row["turn"], index + 1);
    EXPECT_EQ(row["n"], 8);
    EXPECT_EQ(row["c"], (std::vector<int>{2, 5, 6})[index]);
    EXPECT_EQ(row["f_p"]["1.5"], (std::vector<int>{1, 2, 2})[index]);
    EXPECT_NEAR(row["metrics"]["pass@1"].get<double>(), kPass1[index], kTolerance);
    EXPECT_NEAR(row["metrics"]["fast_1@2"].get<double>(), kFast1At2[index], kTolerance);
    EXPECT_FALSE(row["metrics"].contains("geomean_speedup"));
    EXPECT_NEAR(doc["curve"]["pass@2"][index].get<double>(), kPass2[index], kTolerance);
    EXPECT_NEAR(doc["curve"]["fast_1@1"][index].get<double>(), kFast1At1[index], kTolerance);
  }
}

TEST(TurnScore, PrintsAByTurnTableOnlyForARunWithTurns) {
  const std::string table =
      score_table(score_dir(test::fixture_dir("turns"), turn_settings()).score, Breakdown::none);
  EXPECT_NE(table.find("   turns: 3\n"), std::string::npos) << table;
  EXPECT_NE(
      table.find("\nturn    samples  correct       pass@1       pass@2     fast_1@1   fast_1.5@1\n"
                 "1             8        2        0.250        0.417        0.125        0.125\n"
                 "2             8        5        0.625        0.917        0.500        0.250\n"
                 "3             8        6        0.750        0.917        0.625        0.250\n"),
      std::string::npos)
      << table;
  const std::string single = score_table(
      score_dir(test::fixture_dir("basic"), turn_settings()).score, Breakdown::category);
  EXPECT_EQ(single.find("by turn"), std::string::npos) << single;
  EXPECT_EQ(single.find("turns:"), std::string::npos) << single;
}

}  // namespace
}  // namespace pkb::score
