// `pkb merge` end to end on shards cut from one replay run: the merged directory scores as the
// unsharded run does, and each refusal (settings, duplicate, missing) names what it refuses.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "tests/e2e/run_pkb.h"
#include "tests/shard/shard_fixture.h"

namespace pkb::test {
namespace {

std::string merge_args(const std::string& out, const std::vector<std::string>& dirs) {
  std::string args = "merge '" + out + "'";
  for (const auto& dir : dirs) args += " '" + dir + "'";
  return args;
}

// `pkb score --json DIR` with the parts that name the inputs removed.
nlohmann::json scores(const std::string& dir) {
  const PkbRun run = run_pkb("score --json '" + dir + "'");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json doc = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << run.out;
  for (const char* name : {"inputs", "input", "dirs", "runs"}) doc.erase(name);
  return doc;
}

std::vector<std::string> sorted_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::istringstream in(read_text(path));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST(MergeCli, ShardsMergeToTheScoresOfTheUnshardedRun) {
  const auto shards = cut_shards(3);
  const std::string out = make_temp_dir("merge_out") + "/merged";
  const PkbRun run = run_pkb(merge_args(out, shards));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(sorted_lines(out + "/samples.jsonl"), sorted_lines(whole_run() + "/samples.jsonl"));
  EXPECT_EQ(scores(out), scores(whole_run()));
  const auto doc = read_json(out + "/run.json");
  EXPECT_EQ(doc["kind"], "merged");
  EXPECT_EQ(doc["merged_kind"], "run");
  ASSERT_EQ(doc["shards"].size(), 3u);
  EXPECT_EQ(doc["shards"][2]["dir"], shards[2]);
  EXPECT_EQ(doc["summary"]["total"], 24);
  EXPECT_FALSE(doc.contains("shard"));
  // Sorted by (problem, sample, turn), whatever order the shards were named in.
  std::istringstream in(read_text(out + "/samples.jsonl"));
  std::string previous, line;
  while (std::getline(in, line)) {
    const auto record = nlohmann::json::parse(line);
    const std::string key = record["problem"].get<std::string>() + "/" + std::to_string(record["sample"].get<int>());
    EXPECT_LT(previous, key);
    previous = key;
  }
  for (const auto& entry : std::filesystem::recursive_directory_iterator(whole_run() + "/solutions")) {
    if (!entry.is_regular_file()) continue;
    const auto relative = std::filesystem::relative(entry.path(), whole_run() + "/solutions");
    EXPECT_TRUE(std::filesystem::exists(out + "/solutions/" + relative.string())) << entry.path();
  }
}

TEST(MergeCli, RefusesShardsOfDifferentSettingsNamingTheField) {
  const auto shards = cut_shards(3);
  auto doc = read_json(shards[1] + "/run.json");
  doc["fingerprint"]["temperature"] = "0.7";
  write_text(shards[1] + "/run.json", doc.dump(2));
  const std::string out = make_temp_dir("merge_out") + "/merged";
  const PkbRun run = run_pkb(merge_args(out, shards));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("pkb: error: " + shards[1] + "/run.json: fingerprint.temperature is \"0.7\", but " +
                         shards[0] + "/run.json has \"\": shards of different settings are not merged"),
            std::string::npos)
      << run.err;
  EXPECT_FALSE(std::filesystem::exists(out + "/run.json"));
}

TEST(MergeCli, RefusesASampleTwiceNamingBothDirectories) {
  const auto shards = cut_shards(3);
  std::istringstream first(read_text(shards[0] + "/samples.jsonl"));
  std::string line;
  std::getline(first, line);
  write_text(shards[2] + "/samples.jsonl", read_text(shards[2] + "/samples.jsonl") + line + "\n");
  const PkbRun run = run_pkb(merge_args(make_temp_dir("merge_out") + "/merged", shards));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find(shards[2] + "/samples.jsonl:"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(": duplicate record for "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("(also at " + shards[0] + "/samples.jsonl:1)"), std::string::npos) << run.err;
}

TEST(MergeCli, ReportsMissingSamplesNamingTheShard) {
  const auto shards = cut_shards(3);
  // Shard 2 never given; shard 1 killed after its first sample.
  std::istringstream lines(read_text(shards[1] + "/samples.jsonl"));
  std::string line;
  std::getline(lines, line);
  write_text(shards[1] + "/samples.jsonl", line + "\n");
  auto doc = read_json(shards[1] + "/run.json");
  doc.erase("finished");
  write_text(shards[1] + "/run.json", doc.dump(2));
  const PkbRun run = run_pkb(merge_args(make_temp_dir("merge_out") + "/merged", {shards[0], shards[1]}));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("pkb: error: 15 of 24 samples are missing: shard 1/3 in " + shards[1] +
                         " (not finished): "),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("; shard 2/3 (no directory given): 001_allreduce sample 2, "), std::string::npos) << run.err;
}

TEST(MergeCli, RefusesAnOutputThatHoldsARun) {
  const auto shards = cut_shards(2);
  const PkbRun run = run_pkb(merge_args(shards[0], shards));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("pkb: error: " + shards[0] + ": OUT is also a shard directory"), std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace pkb::test
