// Results directories an older pkb wrote (tests/score/data/pkb-639bb6c: `pkb run` and
// `pkb generate` of commit 639bb6c, before records were typed) still score, merge and evaluate,
// and a rewrite of their records keeps every field.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/e2e/run_pkb.h"
#include "tests/score/fixture.h"

namespace pkb::test {
namespace {

namespace fs = std::filesystem;

const fs::path kOld = fs::path(PKB_SOURCE_DIR) / "tests/score/data/pkb-639bb6c";

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

std::multiset<std::string> lines_of(const fs::path& path) {
  std::ifstream in(path);
  std::multiset<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.insert(line);
  return lines;
}

nlohmann::json statuses_of(const std::string& score_json) {
  return nlohmann::json::parse(score_json)["overall"]["statuses"];
}

const nlohmann::json kShardStatuses = {
    {"compile_error", 1}, {"compiled", 4}, {"format_error", 1}, {"plan_error", 2}};

TEST(OldResults, TwoShardsScoreAsOneRun) {
  const PkbRun run = run_pkb("score " + quoted(kOld / "shard-0") + " " + quoted(kOld / "shard-1") +
                             " --json --bootstrap 50");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(statuses_of(run.out), kShardStatuses);
  EXPECT_EQ(nlohmann::json::parse(run.out)["overall"]["samples"], 8);
}

TEST(OldResults, TwoShardsMergeLineForLine) {
  const fs::path out = fs::path(make_temp_dir("old_merge")) / "merged";
  const PkbRun merge = run_pkb("merge " + quoted(out) + " " + quoted(kOld / "shard-0") + " " +
                               quoted(kOld / "shard-1"));
  ASSERT_EQ(merge.exit_code, 0) << merge.err;
  std::multiset<std::string> shards = lines_of(kOld / "shard-0/samples.jsonl");
  for (const auto& line : lines_of(kOld / "shard-1/samples.jsonl")) shards.insert(line);
  EXPECT_EQ(lines_of(out / "samples.jsonl"), shards);  // every line as the older pkb wrote it
  EXPECT_TRUE(fs::is_regular_file(out / "solutions/001_allreduce/sample_3/kernel.cu"));
  const nlohmann::json summary = nlohmann::json::parse(std::ifstream(out / "run.json"))["summary"];
  EXPECT_EQ(summary["total"], 8);
  EXPECT_EQ(summary["by_status"], kShardStatuses);

  const PkbRun score = run_pkb("score " + quoted(out) + " --json --bootstrap 50");
  ASSERT_EQ(score.exit_code, 0) << score.err;
  EXPECT_EQ(statuses_of(score.out), kShardStatuses);
  fs::remove_all(out.parent_path());
}

TEST(OldResults, ARunWithTurnsScoresPerTurn) {
  const PkbRun run = run_pkb("score " + quoted(kOld / "turns") + " --json --bootstrap 50");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json doc = nlohmann::json::parse(run.out);
  ASSERT_EQ(doc["per_turn"].size(), 2u) << run.out;
  // api_error turns are left out of n.
  EXPECT_EQ(doc["overall"]["statuses"], nlohmann::json({{"api_error", 2}, {"compiled", 6}}));
}

TEST(OldResults, AGenerationEvaluatesAndKeepsItsRecords) {
  const fs::path dir = fs::path(make_temp_dir("old_generate")) / "generate";
  fs::copy(kOld / "generate", dir, fs::copy_options::recursive);
  const PkbRun run = run_pkb("evaluate " + quoted(dir) + " --dims test --compile-jobs 2");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // The records moved to generate.jsonl went through the typed record and back: the same JSON.
  std::vector<nlohmann::json> before, after;
  for (const auto& record : read_records((kOld / "generate/samples.jsonl").string()))
    before.push_back(record);
  for (const auto& record : read_records((dir / "generate.jsonl").string()))
    after.push_back(record);
  ASSERT_EQ(after.size(), before.size());
  for (std::size_t index = 0; index < before.size(); ++index)
    EXPECT_EQ(after[index], before[index]) << index;
  std::map<std::string, int> statuses;
  for (const auto& record : read_records((dir / "samples.jsonl").string())) {
    ++statuses[record["status"].get<std::string>()];
    EXPECT_EQ(record["schema_version"], 2);
  }
  // Judged where it runs: the simulated node (or a GPU) finds 2 of the 4 runnable answers wrong,
  // as examples/replay/expected.json says of them.
  EXPECT_EQ(statuses, (std::map<std::string, int>{{"compile_error", 1},
                                                  {"correct", 2},
                                                  {"format_error", 1},
                                                  {"incorrect", 2},
                                                  {"plan_error", 2}}));
  fs::remove_all(dir.parent_path());
}

}  // namespace
}  // namespace pkb::test
