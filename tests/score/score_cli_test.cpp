// `pkb score` end to end: exit codes, the messages on stderr, and the documents on stdout.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/e2e/run_pkb.h"
#include "tests/score/fixture.h"

namespace pkb::test {
namespace {

std::string quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

TEST(ScoreCli, PrintsJsonWithIntervals) {
  const PkbRun run = run_pkb("score " + quoted(fixture_dir("basic")) + " --k 1,3 --json --bootstrap 200");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["kind"], "score");
  EXPECT_NEAR(doc["overall"]["metrics"]["pass@1"]["value"].get<double>(), 5.0 / 9, 1e-12);
  EXPECT_TRUE(doc["overall"]["metrics"]["pass@1"]["low"].is_number());
  EXPECT_EQ(doc["settings"]["k"], nlohmann::json({1, 3}));
}

// The `turns` fixture: per-turn values by hand in tests/score/turn_score_test.cpp.
TEST(ScoreCli, ReportsEveryMetricPerTurn) {
  const PkbRun run =
      run_pkb("score " + quoted(fixture_dir("turns")) + " --k 1,2 --p 0,1,1.5 --json --bootstrap 100");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json doc = nlohmann::json::parse(run.out);
  const std::vector<double> pass1 = {1.0 / 4, 5.0 / 8, 3.0 / 4};
  const std::vector<double> pass2 = {5.0 / 12, 11.0 / 12, 11.0 / 12};
  const std::vector<double> fast1 = {1.0 / 8, 1.0 / 2, 5.0 / 8};
  ASSERT_EQ(doc["per_turn"].size(), 3u) << run.out;
  EXPECT_EQ(doc["curve"]["turns"], nlohmann::json({1, 2, 3}));
  for (std::size_t index = 0; index < 3; ++index) {
    const nlohmann::json& row = doc["per_turn"][index];
    EXPECT_EQ(row["turn"], index + 1);
    EXPECT_EQ(row["n"], 8);
    EXPECT_EQ(row["c"], (std::vector<int>{2, 5, 6})[index]);
    EXPECT_NEAR(row["metrics"]["pass@1"].get<double>(), pass1[index], 1e-9);
    EXPECT_NEAR(row["metrics"]["pass@2"].get<double>(), pass2[index], 1e-9);
    EXPECT_NEAR(row["metrics"]["fast_1@1"].get<double>(), fast1[index], 1e-9);
    EXPECT_NEAR(doc["curve"]["pass@1"][index].get<double>(), pass1[index], 1e-9);
    EXPECT_NEAR(doc["curve"]["fast_1@1"][index].get<double>(), fast1[index], 1e-9);
  }
  // The last turn is the whole run, whose numbers keep their intervals.
  EXPECT_NEAR(doc["overall"]["metrics"]["pass@1"]["value"].get<double>(), pass1.back(), 1e-12);
  EXPECT_TRUE(doc["overall"]["metrics"]["pass@1"]["low"].is_number());

  const PkbRun table = run_pkb("score " + quoted(fixture_dir("turns")));
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find(
                "\nturn    samples  correct       pass@1     fast_1@1   fast_1.5@1     fast_2@1\n"
                "1             8        2        0.250        0.125        0.125        0.000\n"
                "2             8        5        0.625        0.500        0.250        0.000\n"
                "3             8        6        0.750        0.625        0.250        0.000\n"),
            std::string::npos)
      << table.out;
  const PkbRun single = run_pkb("score " + quoted(fixture_dir("basic")));
  ASSERT_EQ(single.exit_code, 0) << single.err;
  EXPECT_EQ(single.out.find("by turn"), std::string::npos) << single.out;
}

TEST(ScoreCli, RefusesKAboveNWithExitTwo) {
  const PkbRun run = run_pkb("score " + quoted(fixture_dir("basic")) + " --k 1,10");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "pkb: error: --k 10: problem p_all has n = 3 scored samples, and k must not exceed n\n");
}

TEST(ScoreCli, DefaultKsLeaveOutKAboveNAndSaySo) {
  const PkbRun run = run_pkb("score " + quoted(fixture_dir("basic")) + " --by category");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("note: k = 5 left out: a problem has only 3 samples"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("note: 2 problems without a scored sample"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("note: 1 api_error records not scored"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nfused "), std::string::npos) << run.out;
}

TEST(ScoreCli, RefusesMixedSettingsUnlessAllowed) {
  const auto other = copy_fixture("basic");
  std::string run_json = read_text(other / "run.json");
  run_json.replace(run_json.find("\"dims\": \"test\""), 14, "\"dims\": \"bench\"");
  write_text(other / "run.json", run_json);
  const PkbRun refused = run_pkb("score " + quoted(fixture_dir("basic")) + " " + quoted(other));
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find(other.string() + "/run.json: fingerprint.dims is \"bench\", but "), std::string::npos)
      << refused.err;
  const PkbRun mixed = run_pkb("score " + quoted(fixture_dir("basic")) + " " + quoted(other) + " --allow-mixed --csv");
  EXPECT_EQ(mixed.exit_code, 0) << mixed.err;
  EXPECT_NE(mixed.out.find("\n\"all\",5,18,"), std::string::npos) << mixed.out;
}

// The fair-comparison rule (docs/RESULTS.md, "Leaderboard"): a mixed run that judged only p_all
// is left out, and the table says so, whether it comes first or not.
TEST(ScoreCli, AllowMixedComparesRunsOnTheSameProblems) {
  const auto partial = copy_fixture("basic");
  std::string run_json = read_text(partial / "run.json");
  run_json.replace(run_json.find("\"dims\": \"test\""), 14, "\"dims\": \"bench\"");
  write_text(partial / "run.json", run_json);
  const std::string records = read_text(partial / "samples.jsonl");
  std::size_t third_line_end = 0;
  for (int line = 0; line < 3; ++line) third_line_end = records.find('\n', third_line_end) + 1;
  write_text(partial / "samples.jsonl", records.substr(0, third_line_end));  // p_all only
  const PkbRun mixed = run_pkb("score " + quoted(fixture_dir("basic")) + " " + quoted(partial) + " --allow-mixed");
  ASSERT_EQ(mixed.exit_code, 0) << mixed.err;
  EXPECT_NE(mixed.out.find("note: " + partial.string() +
                           " judged 1/3 of the problems the runs judged (lacks p_none, p_some): left out"),
            std::string::npos)
      << mixed.out;
  EXPECT_NE(mixed.out.find("samples: 9 "), std::string::npos) << mixed.out;
  const PkbRun reversed = run_pkb("score " + quoted(partial) + " " + quoted(fixture_dir("basic")) + " --allow-mixed");
  ASSERT_EQ(reversed.exit_code, 0) << reversed.err;
  EXPECT_NE(reversed.out.find("samples: 9 "), std::string::npos) << "the complete run is kept, whichever comes first";
}

TEST(ScoreCli, ReportsATornLineAndRefusesACorruptOne) {
  const auto dir = copy_fixture("basic");
  write_text(dir / "samples.jsonl", read_text(dir / "samples.jsonl") + "{\"schema_ver");
  const PkbRun torn = run_pkb("-q score " + quoted(dir) + " --json");
  ASSERT_EQ(torn.exit_code, 0) << torn.err;
  EXPECT_NE(torn.err.find(dir.string() + "/samples.jsonl:11: torn last line (no final newline), skipped"),
            std::string::npos)
      << torn.err;
  const nlohmann::json doc = nlohmann::json::parse(torn.out);
  EXPECT_EQ(doc["records_skipped"].size(), 1u);
  write_text(dir / "samples.jsonl", read_text(dir / "samples.jsonl") + "\n");
  const PkbRun corrupt = run_pkb("score " + quoted(dir));
  EXPECT_EQ(corrupt.exit_code, 2);
  EXPECT_EQ(corrupt.err, "pkb: error: " + dir.string() +
                             "/samples.jsonl:11: not valid JSON (a corrupt record; remove or repair the line)\n");
}

TEST(ScoreCli, RefusesANewerSchema) {
  const auto dir = copy_fixture("nogpu");
  std::string run_json = read_text(dir / "run.json");
  run_json.replace(run_json.find("\"schema_version\": 2"), 19, "\"schema_version\": 9");
  write_text(dir / "run.json", run_json);
  const PkbRun run = run_pkb("score " + quoted(dir));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "pkb: error: " + dir.string() +
                         "/run.json: schema_version 9 is newer than this pkb understands (max 2)\n");
}

}  // namespace
}  // namespace pkb::test
