// Every provider's client against a real HTTP server on loopback (tests/model/fake_provider.h):
// normal answers streamed and not, with thinking that holds code fences kept out of the answer;
// usage and stop reasons normalized; the per-provider concurrency limit. Faults are in
// model_client_faults_test.cpp.
#include "src/model/model_client.h"

#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "tests/model/client_setup.h"

namespace pkb::model {
namespace {

using namespace client_test;

struct ProviderCase {
  std::string name;
  bool stream;
  FakeReply reply;
  std::string path;
  std::string auth_header;
  std::string auth_value;
  std::string resolved_model;
};

std::vector<ProviderCase> provider_cases() {
  return {
      {"openai:gpt-x", false, fake::chat(kAnswer, "stop", kThinking), "/v1/chat/completions",
       "authorization", "Bearer " + kKey, "fake-model-2026"},
      {"openai:gpt-x", true, fake::chat_stream(kAnswer, "stop", kThinking), "/v1/chat/completions",
       "authorization", "Bearer " + kKey, "fake-model-2026"},
      {"together:org/m", true, fake::chat_stream(kAnswer, "eos", kThinking), "/v1/chat/completions",
       "authorization", "Bearer " + kKey, "fake-model-2026"},
      {"openai-compat:m", true, fake::chat_stream(kAnswer, "stop", kThinking),
       "/v1/chat/completions", "authorization", "Bearer " + kKey, "fake-model-2026"},
      {"openai-responses:gpt-x", false, fake::responses(kAnswer), "/v1/responses", "authorization",
       "Bearer " + kKey, "fake-model-2026"},
      {"openai-responses:gpt-x", true, fake::responses_stream(kAnswer), "/v1/responses",
       "authorization", "Bearer " + kKey, "fake-model-2026"},
      {"anthropic:claude-x", false, fake::anthropic(kAnswer, "end_turn", kThinking), "/v1/messages",
       "x-api-key", kKey, "claude-fake"},
      {"anthropic:claude-x", true, fake::anthropic_stream(kAnswer, "end_turn", kThinking),
       "/v1/messages", "x-api-key", kKey, "claude-fake"},
      {"gemini:gemini-x", false, fake::gemini(kAnswer, "STOP", kThinking),
       "/v1beta/models/gemini-x:generateContent", "x-goog-api-key", kKey, "gemini-fake-001"},
      {"gemini:gemini-x", true, fake::gemini_stream(kAnswer, "STOP", kThinking),
       "/v1beta/models/gemini-x:streamGenerateContent?alt=sse", "x-goog-api-key", kKey,
       "gemini-fake-001"},
  };
}

TEST(ModelClient, EveryProviderAnswersStreamedAndNot) {
  for (const auto& test : provider_cases()) {
    const std::string label = test.name + (test.stream ? " streamed" : "");
    FakeProvider server;
    const auto outcome = run(server, test.name, test.stream, {test.reply});
    ASSERT_TRUE(outcome.ok()) << label << ": " << outcome.failure->message;
    const auto& result = *outcome.result;
    EXPECT_EQ(result.text, kAnswer) << label;
    EXPECT_EQ(result.text.find("draft"), std::string::npos) << label;
    if (test.name.rfind("openai-responses", 0) != 0) {
      EXPECT_EQ(result.reasoning_text, kThinking) << label;
    }
    EXPECT_EQ(result.stop, StopReason::complete) << label;
    EXPECT_EQ(result.model, test.resolved_model) << label;
    EXPECT_FALSE(result.response_id.empty()) << label;
    EXPECT_TRUE(result.usage.input.has_value()) << label;
    EXPECT_TRUE(result.usage.output.has_value()) << label;
    EXPECT_EQ(outcome.attempts.size(), 1u) << label;
    const auto seen = server.seen();
    ASSERT_EQ(seen.size(), 1u) << label;
    EXPECT_EQ(seen[0].path, test.path) << label;
    EXPECT_EQ(seen[0].headers.at(test.auth_header), test.auth_value) << label;
    EXPECT_EQ(outcome.request_body.dump().find(kKey), std::string::npos) << label;
    const auto body = nlohmann::json::parse(seen[0].body);
    if (test.name.rfind("anthropic", 0) == 0) {
      EXPECT_EQ(seen[0].headers.at("anthropic-version"), "2023-06-01");
    }
    if (test.name.rfind("openai:", 0) == 0) {
      EXPECT_EQ(body.at("max_completion_tokens"), 1000) << label;
    }
    if (test.name.rfind("together", 0) == 0 || test.name.rfind("openai-compat", 0) == 0) {
      EXPECT_EQ(body.at("max_tokens"), 1000) << label;
    }
    EXPECT_FALSE(body.contains("temperature")) << label;  // sent only when set
  }
}

TEST(ModelClient, NormalizesUsagePerProvider) {
  FakeProvider server;
  const auto chat = run(server, "openai:gpt-x", false, {fake::chat(kAnswer)});
  EXPECT_EQ(*chat.result->usage.input, 100);
  EXPECT_EQ(*chat.result->usage.cached, 64);
  EXPECT_EQ(*chat.result->usage.output, 50);
  EXPECT_EQ(*chat.result->usage.reasoning, 20);
  EXPECT_EQ(chat.request_id, "req_fake_chat");
  const auto anthropic = run(server, "anthropic:claude-x", false, {fake::anthropic(kAnswer)});
  EXPECT_EQ(*anthropic.result->usage.input, 100);  // 10 uncached + 80 read + 10 written
  EXPECT_EQ(*anthropic.result->usage.cached, 80);
  EXPECT_FALSE(anthropic.result->usage.reasoning.has_value());
  EXPECT_EQ(anthropic.request_id, "req_fake_anthropic");
  const auto gemini = run(server, "gemini:g", true, {fake::gemini_stream(kAnswer)});
  EXPECT_EQ(*gemini.result->usage.output, 65);  // candidates 40 + thoughts 25
  EXPECT_EQ(*gemini.result->usage.reasoning, 25);
  EXPECT_FALSE(gemini.result->usage.cached.has_value());
}

TEST(ModelClient, MapsStopReasons) {
  FakeProvider server;
  FakeReply refusal;
  refusal.body = R"({"id":"c","model":"m","choices":[{"index":0,"finish_reason":"stop",
                     "message":{"role":"assistant","content":null,"refusal":"I can't help with that."}}]})";
  FakeReply blocked;
  blocked.body = R"({"promptFeedback":{"blockReason":"SAFETY"},"modelVersion":"g"})";
  struct Case {
    std::string name;
    FakeReply reply;
    StopReason stop;
    std::string raw;
  };
  const std::vector<Case> cases = {
      {"openai:g", fake::chat("```cuda\nunclosed", "length"), StopReason::truncated, "length"},
      {"openai:g", fake::chat("", "content_filter"), StopReason::filtered, "content_filter"},
      {"openai-responses:g", fake::responses("```cuda\n", "incomplete", "max_output_tokens"),
       StopReason::truncated, "incomplete:max_output_tokens"},
      {"anthropic:c", fake::anthropic("```cuda\n", "max_tokens"), StopReason::truncated,
       "max_tokens"},
      {"anthropic:c", fake::anthropic("", "refusal"), StopReason::refused, "refusal"},
      {"gemini:g", fake::gemini("```cuda\n", "MAX_TOKENS"), StopReason::truncated, "MAX_TOKENS"},
      {"gemini:g", fake::gemini("", "SAFETY"), StopReason::filtered, "SAFETY"},
      {"openai:g", refusal, StopReason::refused, "stop"},
      {"gemini:g", blocked, StopReason::filtered, "blocked:SAFETY"},
  };
  for (const auto& test : cases) {
    const auto outcome = run(server, test.name, false, {test.reply});
    ASSERT_TRUE(outcome.ok()) << test.raw;
    EXPECT_EQ(outcome.result->stop, test.stop) << test.raw;
    EXPECT_EQ(outcome.result->raw_stop, test.raw);
  }
}

TEST(ModelClient, ConcurrencyLimitBoundsRequestsInFlight) {
  FakeProvider server;
  server.set_default([](const test::SeenRequest&) {
    auto reply = fake::chat(kAnswer);
    reply.latency_ms = 100;
    return reply;
  });
  auto options = fast_options(false);
  options.max_in_flight = 2;
  HttpModelClient client(spec_for("openai:g", server), kKey, options);
  std::vector<std::thread> workers;
  for (int index = 0; index < 6; ++index)
    workers.emplace_back([&client] { EXPECT_TRUE(client.generate(request()).ok()); });
  for (auto& worker : workers) worker.join();
  EXPECT_EQ(server.seen().size(), 6u);
  EXPECT_LE(server.peak_in_flight(), 2);
  EXPECT_EQ(server.peak_in_flight(), 2);
}

TEST(ConcurrencyLimit, HalvesOnRateLimitsAndGrowsBack) {
  ConcurrencyLimit limit(8);
  limit.on_rate_limited();
  EXPECT_EQ(limit.allowed(), 4);
  limit.on_rate_limited();
  limit.on_rate_limited();
  limit.on_rate_limited();
  EXPECT_EQ(limit.allowed(), 1);
  for (int index = 0; index < 100; ++index) limit.on_success();
  EXPECT_EQ(limit.allowed(), 8);
}

}  // namespace
}  // namespace pkb::model
