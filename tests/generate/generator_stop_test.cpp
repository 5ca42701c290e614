// run_generation when the endpoint goes away or pushes back (issue 23): a server that dies mid-run
// stops the run with the rest left unasked, and --resume finishes it; parameters changed after a
// 400 are in each record and survive the response cache; timeouts after the provider had the
// request are recorded and counted.
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <thread>

#include "src/results/durable_file.h"
#include "tests/generate/generate_setup.h"
#include "tests/model/strict_provider.h"

namespace pkb::generate {
namespace {

using namespace generate_test;

nlohmann::json run_json(const std::filesystem::path& out) {
  return nlohmann::json::parse(results::read_file(out / "run.json"));
}

TEST(GenerateStop, ADeadEndpointStopsTheRunAndResumeAsksTheRest) {
  auto server = std::make_unique<FakeProvider>();
  server->set_default([](const test::SeenRequest&) {
    auto reply = fake::chat_stream(kAnswer);
    reply.latency_ms = 20;
    return reply;
  });
  const int port = server->port();
  const auto spec = model::parse_model_name("openai-compat:fake", server->base_url());
  const auto out = temp_dir("dead");
  auto config = config_for(spec, out, 8, 4);
  config.jobs = 2;
  auto options = fast_options();
  options.max_attempts_other = 4;  // as by default: more than the 3 failed connects that stop it
  model::HttpModelClient client(spec, kKey, options);
  GenerateStats stats;
  std::thread killer([&] {
    for (int poll = 0; poll < 500 && stats.done < 4; ++poll)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    server.reset();  // refuses connections from now on
  });
  const auto summary = run_generation(config, client, stats);
  killer.join();

  const auto lines = records(out);
  ASSERT_GE(lines.size(), 4u);
  ASSERT_LT(lines.size(), 32u);
  for (const auto& line : lines) EXPECT_EQ(line.at("status"), "generated");  // no api_error
  const std::string base = "http://127.0.0.1:" + std::to_string(port) + "/v1";
  const auto stopped = run_json(out).at("summary");
  EXPECT_EQ(stopped.at("stopped"),
            base + ": 3 connections in a row failed (Couldn't connect to server)");
  EXPECT_EQ(stopped.at("unasked"), 32 - static_cast<int>(lines.size()));
  EXPECT_EQ(summary.unasked, 32 - static_cast<int>(lines.size()));

  FakeProvider back(port);
  ASSERT_EQ(back.port(), port);
  back.set_default([](const test::SeenRequest&) { return fake::chat_stream(kAnswer); });
  config.resume = true;
  model::HttpModelClient again(spec, kKey, options);
  GenerateStats resumed;
  const auto finished = run_generation(config, again, resumed);
  EXPECT_EQ(finished.stopped, "");
  EXPECT_EQ(finished.generated + finished.resumed, 32);
  const auto all = records(out);
  std::set<std::pair<std::string, int>> ids;
  for (const auto& line : all) ids.emplace(line.at("problem"), line.at("sample"));
  EXPECT_EQ(all.size(), 32u);
  EXPECT_EQ(ids.size(), 32u);
  EXPECT_TRUE(run_json(out).at("summary").at("stopped").is_null());
  std::filesystem::remove_all(out);
}

TEST(GenerateStop, ParametersChangedAfterA400AreRecordedAndCached) {
  FakeProvider server;
  test::make_strict(server, {kAnswer, 0});
  const auto spec = model::parse_model_name("openai:gpt-9-mini", server.base_url());
  const auto out = temp_dir("adjust");
  auto config = config_for(spec, out, 1, 2);
  config.params.max_tokens = 32000;
  config.jobs = 1;
  model::HttpModelClient client(spec, kKey, fast_options());
  GenerateStats stats;
  run_generation(config, client, stats);
  const auto lines = records(out);
  ASSERT_EQ(lines.size(), 2u);
  for (const auto& line : lines) {
    EXPECT_EQ(line.at("status"), "generated");
    ASSERT_EQ(line.at("request_adjustments").size(), 2u);
    EXPECT_EQ(line["request_adjustments"][0].at("parameter"), "max_tokens");
    EXPECT_EQ(line["request_adjustments"][0].at("now"), 16384);
    EXPECT_EQ(line["request_adjustments"][1].at("parameter"), "temperature");
  }
  EXPECT_EQ(lines[0].at("attempts"), 3);
  EXPECT_EQ(lines[1].at("attempts"), 1);  // the client kept what the first sample learned

  // Recorded again from the cache (a crash before the samples line), they keep their changes.
  std::filesystem::remove(out / "samples.jsonl");
  config.resume = true;
  GenerateStats again;
  const auto summary = run_generation(config, client, again);
  EXPECT_EQ(summary.cached, 2);
  for (const auto& line : records(out)) EXPECT_EQ(line.at("request_adjustments").size(), 2u);
  std::filesystem::remove_all(out);
}

TEST(GenerateStop, TimeoutsAfterTheProviderHadTheRequestAreRecordedAndCounted) {
  FakeProvider server;
  test::make_strict(server, {kAnswer, 1000});
  const auto spec = model::parse_model_name("openai:o3", server.base_url());
  const auto out = temp_dir("billed");
  auto config = config_for(spec, out, 1, 1);
  config.params.temperature.reset();
  auto options = fast_options();
  options.timeouts.first_byte_ms = 300;
  model::HttpModelClient client(spec, kKey, options);
  GenerateStats stats;
  const auto summary = run_generation(config, client, stats);
  const auto lines = records(out);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].at("status"), "api_error");
  EXPECT_EQ(lines[0].at("timeouts_after_accept"), 2);
  EXPECT_EQ(summary.timeouts_after_accept, 2);
  EXPECT_EQ(run_json(out).at("summary").at("timeouts_after_accept"), 2);
  std::filesystem::remove_all(out);
}

}  // namespace
}  // namespace pkb::generate
