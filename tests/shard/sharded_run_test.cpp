// --shard on the commands themselves: N `pkb run --shard I/N` (and N `pkb evaluate --shard I/N`
// of one generation) merge to the scores of the run made whole; bad values exit 2 naming --shard.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/e2e/run_pkb.h"
#include "tests/shard/shard_fixture.h"

namespace pkb::test {
namespace {

// The six problems with replay folders (every status, 24 samples).
const std::string kReplay = "--model replay:examples/replay --problems 1-4,7,16 --samples 4 --dims test";

nlohmann::json scores(const std::string& dir) {
  const PkbRun run = run_pkb("score --json '" + dir + "'");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json doc = nlohmann::json::parse(run.out, nullptr, false);
  doc.erase("inputs");
  return doc;
}

TEST(ShardedRun, ThreeShardsMergeToTheUnshardedScores) {
  const std::string root = make_temp_dir("sharded_run");
  std::string merge = "merge '" + root + "'";
  for (int index = 0; index < 3; ++index) {
    const std::string out = root + "/shard-" + std::to_string(index);
    const PkbRun run = run_pkb("-q run " + kReplay + " --shard " + std::to_string(index) + "/3 --out '" + out + "'");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(read_json(out + "/run.json")["shard"], nlohmann::json({{"index", index}, {"count", 3}}));
    EXPECT_EQ(read_json(out + "/run.json")["summary"]["total"], 8);
    merge += " '" + out + "'";
  }
  const PkbRun merged = run_pkb(merge);
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(scores(root), scores(whole_run()));
}

TEST(ShardedRun, EvaluateShardsOfOneGenerationMergeToTheWholeEvaluation) {
  const std::string root = make_temp_dir("sharded_eval");
  ASSERT_EQ(run_pkb("-q generate " + kReplay + " --out '" + root + "/gen'").exit_code, 0);
  std::filesystem::copy(root + "/gen", root + "/whole", std::filesystem::copy_options::recursive);
  ASSERT_EQ(run_pkb("-q evaluate '" + root + "/whole'").exit_code, 0);
  std::string merge = "merge '" + root + "/merged'";
  for (int index = 0; index < 3; ++index) {
    const std::string out = root + "/merged/shard-" + std::to_string(index);
    const PkbRun run = run_pkb("-q evaluate '" + root + "/gen' --shard " + std::to_string(index) + "/3 --out '" + out + "'");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    merge += " '" + out + "'";
  }
  const PkbRun merged = run_pkb(merge);
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(read_json(root + "/merged/run.json")["merged_kind"], "evaluate");
  EXPECT_EQ(scores(root + "/merged"), scores(root + "/whole"));
  EXPECT_FALSE(std::filesystem::exists(root + "/gen/generate.jsonl")) << "the generation was written to";
}

TEST(ShardedRun, RefusesBadShardValuesNamingTheFlag) {
  const std::string out = make_temp_dir("bad_shard") + "/out";
  for (const char* value : {"0/0", "3/3", "a/b", "1/0"}) {
    for (const char* command : {"run", "generate"}) {
      const PkbRun run = run_pkb(std::string(command) + " " + kReplay + " --shard " + value + " --out '" + out + "'");
      EXPECT_EQ(run.exit_code, 2) << command << " " << value;
      EXPECT_NE(run.err.find(std::string("pkb: error: --shard ") + value + ": expected I/N with 0 <= I < N"),
                std::string::npos)
          << run.err;
      EXPECT_FALSE(std::filesystem::exists(out + "/run.json"));
    }
  }
  const PkbRun evaluate = run_pkb("evaluate '" + out + "' --shard 3/3 --out '" + out + "2'");
  EXPECT_EQ(evaluate.exit_code, 2);
  EXPECT_NE(evaluate.err.find("pkb: error: --shard 3/3: expected I/N"), std::string::npos) << evaluate.err;
}

TEST(ShardedRun, ResumeRefusesAnotherShard) {
  const std::string out = make_temp_dir("resume_shard") + "/out";
  ASSERT_EQ(run_pkb("-q run " + kReplay + " --shard 0/2 --out '" + out + "'").exit_code, 0);
  const PkbRun run = run_pkb("-q run " + kReplay + " --shard 1/2 --resume --out '" + out + "'");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("pkb: error: --resume: " + out + " holds shard 0/2, not 1/2"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace pkb::test
