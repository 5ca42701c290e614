// `pkb generate` against the strict provider (tests/model/strict_provider.h), issue 23 end to end:
// every model family answers at the default flags and with reasoning, and run.json says what was
// sent; a server that dies mid-run stops the run with one error and --resume finishes it; a model
// table file adds a model without rebuilding pkb, and a bad one is one error; --help names each
// provider's base-URL convention and key variable.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "tests/e2e/run_pkb.h"
#include "tests/model/fake_provider.h"
#include "tests/model/strict_provider.h"

namespace pkb::test {
namespace {

const std::string kAnswer =
    "```cuda\nextern \"C\" __global__ void k() {}\n```\n```json\n{\"steps\": []}\n```\n";

// Keys for every hosted provider, set for one test and removed after it.
struct Keys {
  Keys() {
    for (const char* name : {"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"})
      setenv(name, "sk-strict-test", 1);
  }
  ~Keys() {
    for (const char* name : {"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"})
      unsetenv(name);
  }
};

nlohmann::json run_json(const std::string& out) {
  return nlohmann::json::parse(std::ifstream(out + "/run.json"));
}

std::string base_for(const FakeProvider& server, const std::string& model) {
  return server.base_url(model.rfind("gemini:", 0) == 0 ? "/v1beta" : "/v1");
}

TEST(GenerateModelsCli, EveryModelFamilyAnswersAtTheDefaultFlagsAndWithReasoning) {
  Keys keys;
  FakeProvider server;
  make_strict(server, {kAnswer, 0});
  const std::string root = make_temp_dir("families");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"openai:gpt-4o", ""},
      {"openai:gpt-4o", "--reasoning high"},
      {"openai:o3", "--reasoning high --temperature 0.7"},
      {"openai-responses:gpt-5", "--reasoning high"},
      {"anthropic:claude-3-5-haiku-20241022", "--reasoning high"},
      {"anthropic:claude-3-7-sonnet-20250219", "--reasoning high --temperature 0.5"},
      {"anthropic:claude-opus-4-6", "--reasoning high"},
      {"gemini:gemini-2.5-pro", "--reasoning high"},
      {"gemini:gemini-3-pro-preview", "--reasoning medium"},
  };
  int index = 0;
  for (const auto& [model, extra] : cases) {
    const std::string out = root + "/" + std::to_string(index++);
    const PkbRun run =
        run_pkb("-q generate --model " + model + " --base-url " + base_for(server, model) +
                " --problems 1 --out " + out + " " + extra);
    const std::string label = model + " " + extra;
    ASSERT_EQ(run.exit_code, 0) << label << "\n" << run.err;
    const auto lines = read_records(out + "/samples.jsonl");
    ASSERT_EQ(lines.size(), 1u) << label;
    EXPECT_EQ(lines[0].at("status"), "generated") << label;
    EXPECT_EQ(lines[0].at("attempts"), 1) << label;
    EXPECT_FALSE(lines[0].contains("request_adjustments")) << label;
  }
  EXPECT_EQ(server.seen().size(), cases.size());
  const auto gpt4o = run_json(root + "/0");
  EXPECT_EQ(gpt4o.at("fingerprint").at("max_tokens"), 16384);  // the model's default, not 32000
  EXPECT_EQ(gpt4o.at("request_sent").at("max_completion_tokens"), 16384);
  EXPECT_NE(gpt4o.at("command").get<std::string>().find("--max-tokens 16384"), std::string::npos);
}

TEST(GenerateModelsCli, RunJsonRecordsTheRequestSettingsAndWarnsOfWhatTheyChange) {
  Keys keys;
  FakeProvider server;
  make_strict(server, {kAnswer, 0});
  const std::string out = make_temp_dir("settings") + "/run";
  const PkbRun run = run_pkb(
      "-q generate --model openai:o3 --base-url " + server.base_url() +
      " --problems 1 --temperature 0.7 --reasoning high --first-byte-timeout 900 --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err,
            "warning: model: openai:o3: temperature 0.7 not sent: the model takes only its default "
            "(model table: built-in models.json rules[6])\n");
  const auto settings = run_json(out).at("request_settings");
  EXPECT_EQ(
      settings,
      (nlohmann::json{
          {"max_tokens", 32000},
          {"temperature", nullptr},
          {"reasoning", {{"style", "effort"}, {"value", "high"}}},
          {"summary", false},
          {"rule", "built-in models.json rules[6]"},
          {"changed",
           {"temperature 0.7 not sent: the model takes only its "
            "default"}},
          {"timeouts_s",
           {{"connect", 10.0}, {"first_byte", 900.0}, {"stall", 120.0}, {"overall", 3600.0}}}}));
}

TEST(GenerateModelsCli, ADeadEndpointStopsTheRunWithOneErrorAndResumeFinishesIt) {
  auto server = std::make_unique<FakeProvider>();
  server->set_default([](const SeenRequest&) {
    auto reply = fake::chat_stream(kAnswer);
    reply.latency_ms = 50;
    return reply;
  });
  const int port = server->port();
  const std::string base = server->base_url();
  const std::string out = make_temp_dir("dead") + "/run";
  const std::string args = "-q generate --model openai-compat:fake --base-url " + base +
                           " --problems 1-8 --samples 4 --jobs 2 --out " + out;
  PkbRun run;
  std::thread generate([&] { run = run_pkb(args); });
  constexpr int kMaxPolls = 400;  // x 25 ms
  for (int poll = 0; poll < kMaxPolls && read_records(out + "/samples.jsonl").size() < 3; ++poll)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  server.reset();  // the endpoint dies: connections are refused from now on
  generate.join();
  const std::size_t answered = read_records(out + "/samples.jsonl").size();
  ASSERT_GE(answered, 3u);
  ASSERT_LT(answered, 32u);
  EXPECT_EQ(run.exit_code, 1);
  const std::string error = "pkb: failed: generate: stopped: " + base +
                            ": 3 connections in a row failed (Couldn't connect to server); " +
                            std::to_string(32 - answered) +
                            " of 32 samples not asked; pkb generate --resume --out " + out +
                            " continues\n";
  ASSERT_GE(run.err.size(), error.size()) << run.err;
  EXPECT_EQ(run.err.substr(run.err.size() - error.size()), error);
  EXPECT_EQ(run.err.find("pkb: "), run.err.size() - error.size());  // the only error
  for (const auto& line : read_records(out + "/samples.jsonl")) EXPECT_EQ(line.at("status"), "generated");

  FakeProvider back(port);
  back.set_default([](const SeenRequest&) { return fake::chat_stream(kAnswer); });
  const PkbRun resumed = run_pkb(args + " --resume");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const auto lines = read_records(out + "/samples.jsonl");
  std::set<std::pair<std::string, int>> ids;
  for (const auto& line : lines) ids.emplace(line.at("problem"), line.at("sample"));
  EXPECT_EQ(lines.size(), 32u);
  EXPECT_EQ(ids.size(), 32u);
  EXPECT_EQ(back.seen().size(), 32u - answered);
}

TEST(GenerateModelsCli, AModelTableFileAddsAModelWithoutRebuilding) {
  Keys keys;
  FakeProvider server;
  make_strict(server, {kAnswer, 0});
  const std::string root = make_temp_dir("table");
  const std::string table = root + "/models.json";
  std::ofstream(table) << R"({"rules": [{"provider": "openai", "models": ["gpt-9-*"],
    "max_output_tokens": 16384, "temperature": "never", "reasoning": "effort"}]})";
  const std::string args = "-q generate --model openai:gpt-9-mini --base-url " + server.base_url() +
                           " --problems 1 --temperature 0.7 ";
  const PkbRun by_flag = run_pkb(args + "--model-table " + table + " --out " + root + "/flag");
  ASSERT_EQ(by_flag.exit_code, 0) << by_flag.err;
  setenv("PKB_MODEL_TABLE", table.c_str(), 1);
  const PkbRun by_env = run_pkb(args + "--out " + root + "/env");
  unsetenv("PKB_MODEL_TABLE");
  ASSERT_EQ(by_env.exit_code, 0) << by_env.err;
  EXPECT_EQ(server.seen().size(), 2u);  // right the first time: no 400 to learn from
  for (const std::string run : {"flag", "env"}) {
    EXPECT_EQ(read_records(root + "/" + run + "/samples.jsonl").at(0).at("attempts"), 1) << run;
    EXPECT_EQ(run_json(root + "/" + run).at("request_settings").at("rule"), table + " rules[0]");
  }
  const PkbRun without = run_pkb(args + "--out " + root + "/without");  // the 400s teach it
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_EQ(read_records(root + "/without/samples.jsonl").at(0).at("request_adjustments").size(), 2u);
}

TEST(GenerateModelsCli, ABadModelTableIsOneLineExitTwoAndWritesNothing) {
  Keys keys;
  FakeProvider server;
  make_strict(server, {kAnswer, 0});
  const std::string root = make_temp_dir("badtable");
  const std::string table = root + "/models.json";
  std::ofstream(table)
      << R"({"rules": [{"provider": "openai", "models": ["x"], "max_output_token": 5}]})";
  const std::string args = "-q generate --model openai:gpt-4o --base-url " + server.base_url() +
                           " --problems 1 --out " + root + "/out ";
  const PkbRun missing = run_pkb(args + "--model-table " + root + "/none.json");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "pkb: error: --model-table " + root + "/none.json: no such file\n");
  const PkbRun bad = run_pkb(args + "--model-table " + table);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "pkb: error: " + table +
                         ": rules[0].max_output_token: expected a known field (did you mean "
                         "'max_output_tokens'?), got an unknown one\n");
  setenv("PKB_MODEL_TABLE", (root + "/none.json").c_str(), 1);
  const PkbRun env = run_pkb(args);
  unsetenv("PKB_MODEL_TABLE");
  EXPECT_EQ(env.exit_code, 2);
  EXPECT_EQ(env.err, "pkb: error: PKB_MODEL_TABLE " + root + "/none.json: no such file\n");
  EXPECT_FALSE(std::filesystem::exists(root + "/out/samples.jsonl"));
  EXPECT_TRUE(server.seen().empty());
}

TEST(GenerateModelsCli, HelpNamesEachProvidersBaseUrlAndKeyVariable) {
  const PkbRun help = run_pkb("generate --help");
  ASSERT_EQ(help.exit_code, 0) << help.err;
  for (const std::string text :
       {"gemini posts to BASE/models/MODEL:streamGenerateContent, BASE ending in /v1beta",
        "anthropic posts to BASE/messages, BASE ending in /v1",
        "openai-responses posts to BASE/responses, BASE ending in /v1",
        "openai-compat posts to BASE/chat/completions, BASE ending in /v1",
        "ANTHROPIC_API_KEY (anthropic)", "GEMINI_API_KEY or GOOGLE_API_KEY (gemini)",
        "OPENAI_COMPAT_API_KEY (openai-compat, optional)", "--first-byte-timeout", "--model-table"})
    EXPECT_NE(help.out.find(text), std::string::npos) << text;
}

}  // namespace
}  // namespace pkb::test
