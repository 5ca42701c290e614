// run_generation against the fake provider on loopback: the results layout, extraction from the
// visible answer only, resume (every sample exactly once, no second request for a cached answer),
// replay, keys never written, and the directory checks that must fail before anything is written.
#include "src/generate/generator.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <set>

#include "src/common/error.h"
#include "src/common/sha256.h"
#include "src/results/durable_file.h"
#include "src/generate/replay_client.h"
#include "src/results/run_lock.h"
#include "tests/generate/generate_setup.h"
#include "src/results/schema.h"

namespace pkb::generate {
namespace {

using namespace generate_test;

std::multiset<std::pair<std::string, int>> sample_ids(const std::vector<nlohmann::json>& lines) {
  std::multiset<std::pair<std::string, int>> ids;
  for (const auto& line : lines)
    ids.emplace(line.at("problem").get<std::string>(), line.at("sample").get<int>());
  return ids;
}

struct Fixture {
  FakeProvider server;
  model::ModelSpec spec = model::parse_model_name("openai-compat:fake", server.base_url());
  std::filesystem::path out = temp_dir("out");
  std::unique_ptr<model::HttpModelClient> client =
      std::make_unique<model::HttpModelClient>(spec, kKey, fast_options());
  ~Fixture() { std::filesystem::remove_all(out); }
};

TEST(Generate, WritesOneRecordPerSampleWithArtifacts) {
  Fixture fx;
  fx.server.set_default([](const test::SeenRequest&) { return fake::chat_stream(kAnswer); });
  GenerateStats stats;
  const auto summary = run_generation(config_for(fx.spec, fx.out, 8, 2), *fx.client, stats);
  EXPECT_EQ(summary.total, 16);
  EXPECT_EQ(summary.generated, 16);
  const auto lines = records(fx.out);
  ASSERT_EQ(lines.size(), 16u);
  EXPECT_EQ(sample_ids(lines).size(), 16u);
  const auto& first = lines[0];
  EXPECT_EQ(first.at("status"), "generated");
  EXPECT_EQ(first.at("schema_version"), results::kGenerationSchema);
  EXPECT_EQ(first.at("stop_reason"), "complete");
  EXPECT_EQ(first.at("usage").at("input_tokens"), 100);
  EXPECT_TRUE(first.at("usage").at("reasoning_tokens").is_null());
  EXPECT_EQ(first.at("attempts"), 1);
  EXPECT_EQ(results::read_file(fx.out / first.at("artifacts").at("cuda").get<std::string>()),
            "extern \"C\" __global__ void k(float* y) {}\n");
  EXPECT_EQ(results::read_file(fx.out / first.at("artifacts").at("plan").get<std::string>()),
            "{\"steps\": []}\n");
  EXPECT_TRUE(
      std::filesystem::exists(fx.out / first.at("artifacts").at("response").get<std::string>()));
  const auto run = nlohmann::json::parse(results::read_file(fx.out / "run.json"));
  EXPECT_EQ(run.at("schema_version"), results::kGenerationSchema);
  EXPECT_EQ(run.at("summary").at("generated"), 16);
  EXPECT_EQ(run.at("problems").size(), 8u);
  const auto body = nlohmann::json::parse(fx.server.seen().at(0).body);
  EXPECT_EQ(body.at("temperature"), 0.7);
  EXPECT_EQ(body.at("max_tokens"), 2000);
}

TEST(Generate, RecordsFormatErrorsFromTheVisibleAnswerOnly) {
  Fixture fx;
  fx.server.script(
      {fake::chat("Here:\n```cuda\nextern \"C\" __global__ void k() {\n", "length"),
       fake::chat(kAnswer, "stop",
                  "```cuda\nextern \"C\" __global__ void draft() {}\n```\n```json\n{}\n```")});
  auto config = config_for(fx.spec, fx.out, 1, 2);
  config.jobs = 1;
  GenerateStats stats;
  run_generation(config, *fx.client, stats);
  const auto lines = records(fx.out);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].at("status"), "format_error");
  EXPECT_EQ(lines[0].at("format_reason"), "truncated");
  EXPECT_EQ(lines[0].at("stop_reason"), "truncated");
  EXPECT_EQ(lines[0].at("message"), "truncated (max tokens) inside an unclosed ```cuda block");
  EXPECT_FALSE(lines[0].at("artifacts").contains("cuda"));
  EXPECT_EQ(lines[1].at("status"), "generated");
  const std::string kernel =
      results::read_file(fx.out / lines[1].at("artifacts").at("cuda").get<std::string>());
  EXPECT_EQ(kernel.find("draft"), std::string::npos);
  EXPECT_EQ(stats.failures["format_error: truncated"], 1);
}

TEST(Generate, ResumeAsksOnlyWhatNeverGotAnAnswerAndKeepsEachSampleOnce) {
  Fixture fx;
  // First run: every request for problem 2 fails; the others answer.
  fx.server.set_default([](const test::SeenRequest& request) {
    return request.body.find("problem 2") != std::string::npos ? fake::error(500, "{}")
                                                               : fake::chat_stream(kAnswer);
  });
  auto config = config_for(fx.spec, fx.out, 3, 2);
  GenerateStats first;
  const auto summary = run_generation(config, *fx.client, first);
  EXPECT_EQ(summary.api_errors, 2);
  EXPECT_EQ(records(fx.out).size(), 6u);
  // A crash after the cache entry, before the samples line: drop one finished line, and tear the
  // file.
  auto lines = records(fx.out);
  std::string kept;
  int dropped_generated = 0;
  for (const auto& line : lines) {
    if (line.at("status") == "generated" && dropped_generated++ == 0) continue;
    kept += line.dump() + "\n";
  }
  std::ofstream(fx.out / "samples.jsonl") << kept << "{\"problem\": \"001_p\", \"sam";
  const std::size_t requests_before = fx.server.seen().size();

  fx.server.set_default([](const test::SeenRequest&) { return fake::chat_stream(kAnswer); });
  config.resume = true;
  fx.client = std::make_unique<model::HttpModelClient>(fx.spec, kKey, fast_options());
  GenerateStats second;
  const auto resumed = run_generation(config, *fx.client, second);
  EXPECT_EQ(resumed.api_errors, 0);
  EXPECT_EQ(resumed.resumed, 3);
  EXPECT_EQ(resumed.cached, 1);                              // the dropped line came from the cache
  EXPECT_EQ(fx.server.seen().size() - requests_before, 2u);  // only problem 2 was asked again
  const auto final_lines = records(fx.out);
  EXPECT_EQ(final_lines.size(), 6u);
  const auto ids = sample_ids(final_lines);
  const std::set<std::pair<std::string, int>> distinct(ids.begin(), ids.end());
  EXPECT_EQ(distinct.size(), 6u);
  for (const auto& line : final_lines) EXPECT_EQ(line.at("status"), "generated");
}

TEST(Generate, ReplayReadsADirectoryBackWithoutANetwork) {
  Fixture fx;
  fx.server.set_default([](const test::SeenRequest&) { return fake::chat(kAnswer, "length"); });
  GenerateStats stats;
  run_generation(config_for(fx.spec, fx.out, 2, 2), *fx.client, stats);
  const auto replay_out = temp_dir("replay");
  ReplayClient replay(fx.out);
  EXPECT_EQ(replay.size(), 4u);
  auto config =
      config_for(model::parse_model_name("replay:" + fx.out.string(), ""), replay_out, 3, 2);
  GenerateStats replay_stats;
  const auto summary = run_generation(config, replay, replay_stats);
  EXPECT_EQ(summary.generated, 4);
  EXPECT_EQ(summary.api_errors, 2);  // problem 3 was never generated
  for (const auto& line : records(replay_out)) {
    if (line.at("problem") == "003_p") {
      EXPECT_EQ(line.at("message").get<std::string>().rfind("replay: ", 0), 0u);
    } else {
      EXPECT_EQ(line.at("stop_reason"), "truncated");  // replayed exactly, truncation included
    }
  }
  std::filesystem::remove_all(replay_out);
}

TEST(Generate, KeysAreNeverWritten) {
  Fixture fx;
  fx.server.script(
      {fake::error(429, R"({"error":{"message":"slow","type":"rate_limit_exceeded"}})"),
       fake::error(400, R"({"error":{"message":"bad","type":"invalid_request_error"}})")});
  fx.server.set_default([](const test::SeenRequest&) { return fake::chat_stream(kAnswer); });
  GenerateStats stats;
  run_generation(config_for(fx.spec, fx.out, 2, 2), *fx.client, stats);
  EXPECT_EQ(fx.server.seen().at(0).headers.at("authorization"), "Bearer " + kKey);  // it was sent
  int files = 0;
  for (const auto& file : std::filesystem::recursive_directory_iterator(fx.out)) {
    if (!file.is_regular_file()) continue;
    ++files;
    EXPECT_EQ(results::read_file(file.path()).find(kKey), std::string::npos) << file.path();
  }
  EXPECT_GE(files, 6);
}

TEST(Generate, DirectoryChecksFailBeforeAnythingIsWritten) {
  Fixture fx;
  fx.server.set_default([](const test::SeenRequest&) { return fake::chat(kAnswer); });
  GenerateStats stats;
  run_generation(config_for(fx.spec, fx.out, 1, 1), *fx.client, stats);
  try {
    run_generation(config_for(fx.spec, fx.out, 1, 1), *fx.client, stats);
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_EQ(std::string(error.what()),
              "--out " + fx.out.string() +
                  ": already holds a run (run.json); pass --resume to continue it");
  }
  auto changed = config_for(fx.spec, fx.out, 1, 1);
  changed.resume = true;
  changed.fingerprint["max_tokens"] = 10;
  try {
    run_generation(changed, *fx.client, stats);
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_EQ(std::string(error.what()),
              "--resume: " + fx.out.string() + " was generated with max_tokens = 2000, not 10");
  }
  const auto blocked = temp_dir("blocked");
  std::ofstream(blocked) << "a file, not a directory";
  EXPECT_THROW(run_generation(config_for(fx.spec, blocked / "out", 1, 1), *fx.client, stats),
               UsageError);
  std::filesystem::remove(blocked);
  EXPECT_EQ(records(fx.out).size(), 1u);
}

TEST(RunLock, SecondHolderIsRefused) {
  const auto dir = temp_dir("lock");
  std::filesystem::create_directories(dir);
  {
    results::RunLock first(dir);
    EXPECT_THROW(results::RunLock second(dir), UsageError);
  }
  results::RunLock again(dir);  // released with its holder
  std::filesystem::remove_all(dir);
}

TEST(ResponseCache, KeyDependsOnlyOnWhatShapesTheAnswer) {
  const auto spec = model::parse_model_name("openai-compat:m", "http://127.0.0.1:9/v1");
  SamplingParams params{1000, std::string("0.7"), ""};
  const auto key = make_cache_key(spec, "abc", params, 0);
  EXPECT_EQ(
      key.fields.dump(),
      R"({"api":"chat","endpoint":"http://127.0.0.1:9/v1","model":"m","params":{"max_tokens":1000,"temperature":"0.7"},"prompt_sha256":"abc","provider":"openai-compat","sample_index":0,"schema":1})");
  EXPECT_EQ(key.sha256, sha256_hex(key.fields.dump()));
  EXPECT_NE(make_cache_key(spec, "abc", params, 1).sha256, key.sha256);
  EXPECT_FALSE(make_cache_key(model::parse_model_name("openai:m", ""), "abc", params, 0)
                   .fields.contains("endpoint"));
}

}  // namespace
}  // namespace pkb::generate
