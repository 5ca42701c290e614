// pkb score's numbers on the `basic` and `nogpu` fixtures, against values computed by hand
// (tests/score/data/README.md lists the samples).
#include "src/score/score.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "src/common/error.h"
#include "src/score/score_report.h"
#include "tests/score/fixture.h"

namespace pkb::score {
namespace {

struct Scored {
  std::vector<results::ResultsDir> dirs;
  Score score;
};

Scored score_fixture(const std::string& name, ScoreSettings settings) {
  Scored scored;
  scored.dirs.push_back(results::load_results_dir(test::fixture_dir(name)));
  scored.score = compute_score(merge_dirs(scored.dirs, false), settings);
  return scored;
}

ScoreSettings basic_settings() {
  ScoreSettings settings;
  settings.ks = {1, 3};
  settings.ks_given = true;
  settings.ps = {0, 1, 1.5, 2};
  settings.bootstrap = 200;
  return settings;
}

double value(const GroupScore& group, const std::string& metric) {
  const Estimate* estimate = group.find(metric);
  if (!estimate) ADD_FAILURE() << "no metric " << metric;
  if (estimate && !estimate->value) ADD_FAILURE() << metric << " is null";
  return estimate && estimate->value ? *estimate->value : NAN;
}

TEST(Score, CountsNCAndFastPerProblem) {
  const Scored scored = score_fixture("basic", basic_settings());
  const auto& problems = scored.score.problems;
  ASSERT_EQ(problems.size(), 5u);
  // p_all: 3 correct at 2.0, 1.0 (a tie at p = 1), 1.6.
  EXPECT_EQ(problems[0].n, 3);
  EXPECT_EQ(problems[0].c, 3);
  EXPECT_EQ(problems[0].fast, (std::vector<int>{3, 2, 2, 0}));  // 2.0 is a tie at p = 2
  // p_none: c = 0.  p_some: the emulated 3.0 counts as correct, never as fast.
  EXPECT_EQ(problems[1].c, 0);
  EXPECT_EQ(problems[2].n, 3);
  EXPECT_EQ(problems[2].c, 2);
  EXPECT_EQ(problems[2].fast, (std::vector<int>{2, 1, 0, 0}));
  // p_empty: only an api_error; p_missing: no record at all.
  EXPECT_EQ(problems[3].n, 0);
  EXPECT_EQ(problems[3].statuses.at("api_error"), 1);
  EXPECT_EQ(problems[4].n, 0);
}

TEST(Score, MatchesHandComputedHeadlineValues) {
  const Scored scored = score_fixture("basic", basic_settings());
  const GroupScore& all = scored.score.overall;
  EXPECT_EQ(all.problems, 5);
  EXPECT_EQ(all.problems_scored, 3);
  EXPECT_EQ(all.problems_empty, 2);
  EXPECT_EQ(all.samples, 9);
  EXPECT_NEAR(value(all, "pass@1"), (1 + 0 + 2.0 / 3) / 3, 1e-12);
  EXPECT_NEAR(value(all, "pass@3"), (1 + 0 + 1) / 3.0, 1e-12);  // n = k
  EXPECT_NEAR(value(all, "fast_0@1"), value(all, "pass@1"), 1e-12);
  EXPECT_NEAR(value(all, "fast_1@1"), (2.0 / 3 + 0 + 1.0 / 3) / 3, 1e-12);
  EXPECT_NEAR(value(all, "fast_1@3"), (1 + 0 + 1) / 3.0, 1e-12);
  EXPECT_NEAR(value(all, "fast_1.5@1"), (2.0 / 3) / 3, 1e-12);
  EXPECT_NEAR(value(all, "fast_2@1"), 0.0, 1e-12);
  EXPECT_NEAR(value(all, "geomean_speedup"), std::pow(2.0 * 1.0 * 1.6 * 1.2, 0.25), 1e-12);
  EXPECT_NEAR(value(all, "compile_rate"), 7.0 / 8, 1e-12);
  EXPECT_NEAR(value(all, "format_error_rate"), 1.0 / 9, 1e-12);
  EXPECT_NEAR(value(all, "mean_output_tokens"), 1500.0 / 9, 1e-9);
  EXPECT_NEAR(value(all, "mean_latency_s"), 2.0, 1e-12);  // the api_error's 10 s is not a response
  EXPECT_EQ(all.statuses.at("api_error"), 1);
  EXPECT_EQ(all.statuses.at("correct"), 5);
}

TEST(Score, ScoresEachCategory) {
  const Scored scored = score_fixture("basic", basic_settings());
  ASSERT_EQ(scored.score.categories.size(), 2u);
  EXPECT_EQ(scored.score.categories[0].name, "collectives");
  EXPECT_NEAR(value(scored.score.categories[0], "pass@1"), 0.5, 1e-12);
  EXPECT_EQ(scored.score.categories[1].name, "fused");
  EXPECT_NEAR(value(scored.score.categories[1], "pass@1"), 2.0 / 3, 1e-12);
  EXPECT_EQ(scored.score.categories[1].problems_empty, 2);
}

TEST(Score, IntervalsAreDeterministicForASeedAndBracketTheValue) {
  const Scored first = score_fixture("basic", basic_settings());
  const Scored again = score_fixture("basic", basic_settings());
  ScoreSettings other_seed = basic_settings();
  other_seed.seed = 99;
  const Scored other = score_fixture("basic", other_seed);
  bool any_differs = false;
  for (std::size_t index = 0; index < first.score.overall.metrics.size(); ++index) {
    const Estimate& a = first.score.overall.metrics[index];
    const Estimate& b = again.score.overall.metrics[index];
    EXPECT_EQ(a.low, b.low) << a.name;
    EXPECT_EQ(a.high, b.high) << a.name;
    const Estimate& c = other.score.overall.metrics[index];
    any_differs = any_differs || a.low != c.low || a.high != c.high;
  }
  EXPECT_TRUE(any_differs) << "a different seed should move some interval";
  const Estimate* pass = first.score.overall.find("pass@1");
  ASSERT_TRUE(pass->low && pass->high);
  EXPECT_LE(*pass->low, *pass->value);
  EXPECT_GE(*pass->high, *pass->value);
  EXPECT_LT(*pass->low, *pass->high);
  EXPECT_GE(*pass->low, 0.0);
  EXPECT_LE(*pass->high, 1.0);
}

// Median fraction of the speed of light over trusted timed samples (issue 10): p_all's three
// samples carry 0.2, 0.5 and 0.4, p_some's emulated sample 0.99 (never trusted) and its real one
// 0.3; the median of {0.2, 0.5, 0.4, 0.3} is 0.35. p_all alone has median 0.4.
TEST(Score, MedianSolFractionUsesTrustedTimedSamplesOnly) {
  const auto dir = test::copy_fixture("basic");
  const std::map<std::pair<std::string, int>, double> fractions = {
      {{"p_all", 0}, 0.2}, {{"p_all", 1}, 0.5}, {{"p_all", 2}, 0.4}, {{"p_some", 0}, 0.99},
      {{"p_some", 1}, 0.3}};
  std::istringstream lines(test::read_text(dir / "samples.jsonl"));
  std::string line, rewritten;
  while (std::getline(lines, line)) {
    auto record = nlohmann::json::parse(line);
    const auto found = fractions.find({record["problem"], record["sample"]});
    if (found != fractions.end()) record["sol_fraction"] = found->second;
    rewritten += record.dump() + "\n";
  }
  test::write_text(dir / "samples.jsonl", rewritten);
  std::vector<results::ResultsDir> dirs{results::load_results_dir(dir)};
  const Score score = compute_score(merge_dirs(dirs, false), basic_settings());
  EXPECT_NEAR(value(score.overall, "median_sol_fraction"), 0.35, 1e-12);
  const nlohmann::json doc = score_to_json(score);
  bool seen = false;
  for (const auto& problem : doc["problems"])
    if (problem["name"] == "p_all") {
      seen = true;
      EXPECT_NEAR(problem["metrics"]["median_sol_fraction"]["value"].get<double>(), 0.4, 1e-12);
    }
  EXPECT_TRUE(seen) << doc.dump(1);
}

TEST(Score, RefusesAnExplicitKAboveAProblemsN) {
  ScoreSettings settings = basic_settings();
  settings.ks = {1, 5};
  try {
    score_fixture("basic", settings);
    FAIL() << "k = 5 > n = 3 was accepted";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(),
                 "--k 5: problem p_all has n = 3 scored samples, and k must not exceed n");
  }
}

TEST(Score, LeavesOutDefaultKsAboveNAndSaysSo) {
  ScoreSettings settings = basic_settings();
  settings.ks = {1, 5, 10};
  settings.ks_given = false;
  const Scored scored = score_fixture("basic", settings);
  EXPECT_EQ(scored.score.ks, (std::vector<int>{1}));
  ASSERT_FALSE(scored.score.notes.empty());
  EXPECT_EQ(scored.score.notes[0], "k = 5 left out: a problem has only 3 samples");
}

TEST(Score, ReportsCompiledOnlyProblemsAsNotExecuted) {
  ScoreSettings settings = basic_settings();
  settings.ks = {1, 2};
  const Scored scored = score_fixture("nogpu", settings);
  const GroupScore& all = scored.score.overall;
  EXPECT_EQ(all.problems_unknown, 2);
  EXPECT_EQ(all.problems_scored, 0);
  EXPECT_FALSE(all.find("pass@1")->value);
  EXPECT_FALSE(all.find("fast_1@1")->value);
  EXPECT_NEAR(value(all, "compile_rate"), 3.0 / 4, 1e-12);
  EXPECT_NE(scored.score.notes.back().find("2 problems not executed (no GPU judged them"), std::string::npos);
  const std::string table = score_table(scored.score, Breakdown::problem);
  EXPECT_NE(table.find("\npass@1                         -  not executed (no verdict)\n"), std::string::npos) << table;
  EXPECT_NE(table.find("\np_none                                          1       2          no GPU"),
            std::string::npos)
      << table;
  const nlohmann::json json = score_to_json(scored.score);
  EXPECT_TRUE(json["overall"]["metrics"]["pass@1"]["value"].is_null());
  EXPECT_TRUE(json["problems"][0]["not_executed"].get<bool>());
}

TEST(Score, ReadsASchemaOneGenerateRun) {
  ScoreSettings settings = basic_settings();
  settings.ks = {1};
  const Scored scored = score_fixture("generate", settings);
  const GroupScore& all = scored.score.overall;
  EXPECT_EQ(all.problems, 2);
  EXPECT_EQ(all.problems_unknown, 1);  // 001: answered, never evaluated
  EXPECT_EQ(all.problems_empty, 1);    // 002: only an api_error
  EXPECT_FALSE(all.find("pass@1")->value);
  EXPECT_FALSE(all.find("compile_rate")->value);  // nothing was compiled
  EXPECT_NEAR(value(all, "format_error_rate"), 0.5, 1e-12);
  EXPECT_NEAR(value(all, "mean_output_tokens"), 200, 1e-12);
  EXPECT_EQ(scored.score.problems[0].category, "unknown");  // schema 1 has no categories
  EXPECT_EQ(scored.score.notes[0],
            "1 problems answered but not evaluated (pkb generate output; pkb evaluate runs them): left "
            "out of pass@k and fast_p@k");
}

TEST(Score, WritesTheSameNumbersToJsonTableAndCsv) {
  const Scored scored = score_fixture("basic", basic_settings());
  const nlohmann::json json = score_to_json(scored.score);
  EXPECT_EQ(json["schema_version"], 1);
  EXPECT_NEAR(json["overall"]["metrics"]["pass@1"]["value"].get<double>(), 5.0 / 9, 1e-12);
  EXPECT_EQ(json["problems"][0]["f_p"]["1.5"], 2);
  EXPECT_EQ(json["overall"]["problems_without_samples"], 2);
  const std::string table = score_table(scored.score, Breakdown::category);
  EXPECT_NE(table.find("pass@1                     0.556  ["), std::string::npos) << table;
  EXPECT_NE(table.find("\ncollectives "), std::string::npos) << table;
  const std::string csv = score_csv(scored.score, Breakdown::problem);
  EXPECT_EQ(csv.substr(0, 42), "group,problems,samples,pass@1,pass@1_low,p");
  EXPECT_NE(csv.find("\n\"all\",5,9,0.555556,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n\"p_none\",1,3,0,"), std::string::npos) << csv;
}

}  // namespace
}  // namespace pkb::score
