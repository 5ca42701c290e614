// Every provider's client against a real HTTP server on loopback: normal answers streamed and not,
// and the fault list of issue 6 (rate limits with and without hints, quota, 5xx, malformed JSON,
// cut streams, stalls, truncation, thinking that holds code fences). Timeouts and backoff are short
// so the whole program runs in a few seconds; every loop is bounded.
#include "src/model/model_client.h"

#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "tests/model/fake_provider.h"

namespace pkb::model {
namespace {

using test::FakeProvider;
using test::FakeReply;
namespace fake = test::fake;

const std::string kKey = "sk-test-SECRET-0123";
const std::string kAnswer =
    "Plan first.\n```cuda\nextern \"C\" __global__ void k() {}\n```\n```json\n{\"steps\": "
    "[]}\n```\n";
const std::string kThinking = "Draft:\n```cuda\n__global__ void draft() {}\n```\n";

ClientOptions fast_options(bool stream) {
  ClientOptions options;
  options.stream = stream;
  options.timeouts = {1000, 300, 5000};
  options.max_attempts = 4;
  options.max_attempts_other = 3;
  options.backoff = {0.01, 0.05, 2.0};
  return options;
}

ModelSpec spec_for(const std::string& name, const FakeProvider& server) {
  const bool gemini = name.rfind("gemini:", 0) == 0;
  return parse_model_name(name, server.base_url(gemini ? "/v1beta" : "/v1"));
}

ModelRequest request() {
  ModelRequest out;
  out.user = "write a kernel";
  out.max_tokens = 1000;
  out.label = "001_allreduce#0";
  return out;
}

ModelOutcome run(FakeProvider& server, const std::string& name, bool stream,
                 std::vector<FakeReply> replies, ClientOptions options) {
  server.script(std::move(replies));
  HttpModelClient client(spec_for(name, server), kKey, options);
  return client.generate(request());
}

ModelOutcome run(FakeProvider& server, const std::string& name, bool stream,
                 std::vector<FakeReply> replies) {
  return run(server, name, stream, std::move(replies), fast_options(stream));
}

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
  };
  for (const auto& test : cases) {
    const auto outcome = run(server, test.name, false, {test.reply});
    ASSERT_TRUE(outcome.ok()) << test.raw;
    EXPECT_EQ(outcome.result->stop, test.stop) << test.raw;
    EXPECT_EQ(outcome.result->raw_stop, test.raw);
  }
}

TEST(ModelClient, RetriesRateLimitsHonouringHints) {
  FakeProvider server;
  const std::string limited = R"({"error":{"message":"slow down","type":"rate_limit_exceeded"}})";
  const auto start = std::chrono::steady_clock::now();
  const auto outcome = run(
      server, "openai:g", true,
      {fake::error(429, limited, {{"retry-after-ms", "200"}}),
       fake::error(
           429,
           R"({"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"0.1s"}]}})"),
       fake::chat_stream(kAnswer)});
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(outcome.ok());
  ASSERT_EQ(outcome.attempts.size(), 3u);
  EXPECT_DOUBLE_EQ(outcome.attempts[0].wait_s, 0.2);
  EXPECT_DOUBLE_EQ(outcome.attempts[1].wait_s, 0.1);
  EXPECT_GE(elapsed, 0.3);
  EXPECT_EQ(outcome.attempts[0].http_status, 429);
  EXPECT_EQ(outcome.attempts[0].error, "HTTP 429 rate_limit_exceeded: slow down");
}

TEST(ModelClient, RetriesRateLimitsWithoutHintsByBackoffAndGivesUp) {
  FakeProvider server;
  const std::string limited =
      R"({"type":"error","error":{"type":"rate_limit_error","message":"limited"}})";
  std::vector<FakeReply> replies(6, fake::error(429, limited));
  const auto outcome = run(server, "anthropic:c", false, replies);
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.attempts.size(), 4u);  // max_attempts
  EXPECT_EQ(server.seen().size(), 4u);
  EXPECT_EQ(outcome.failure->kind, FailureKind::fail_sample);
  EXPECT_EQ(outcome.failure->message,
            "HTTP 429 rate_limit_error: limited (gave up after 4 attempts)");
  for (int index = 0; index < 3; ++index) {
    EXPECT_GE(outcome.attempts[index].wait_s, 0.005);
    EXPECT_LE(outcome.attempts[index].wait_s, 0.05);
  }
}

TEST(ModelClient, QuotaErrorIsNotRetriedAndStopsTheProvider) {
  FakeProvider server;
  server.script({fake::error(
      429,
      R"({"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}})",
      {{"retry-after", "1"}})});
  HttpModelClient client(spec_for("openai:g", server), kKey, fast_options(false));
  const auto first = client.generate(request());
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.failure->kind, FailureKind::stop_provider);
  EXPECT_EQ(first.attempts.size(), 1u);
  const auto second = client.generate(request());  // never sent
  EXPECT_EQ(second.failure->kind, FailureKind::stop_provider);
  EXPECT_EQ(second.attempts.size(), 0u);
  EXPECT_EQ(server.seen().size(), 1u);
}

TEST(ModelClient, ServerErrorsThenSuccess) {
  FakeProvider server;
  const auto outcome = run(
      server, "anthropic:c", true,
      {fake::error(500, R"({"type":"error","error":{"type":"api_error","message":"boom"}})"),
       fake::error(502,
                   "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"),
       fake::error(503, R"({"error":{"message":"unavailable"}})"),
       fake::error(
           529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"),
       fake::anthropic_stream(kAnswer)},
      [] {
        auto options = fast_options(true);
        options.max_attempts_other = 3;
        return options;
      }());
  ASSERT_TRUE(outcome.ok()) << outcome.failure->message;
  ASSERT_EQ(outcome.attempts.size(), 5u);
  EXPECT_EQ(outcome.attempts[1].error, "HTTP 502: 502 Bad Gateway");
  EXPECT_EQ(outcome.attempts[3].http_status, 529);
  EXPECT_EQ(outcome.result->text, kAnswer);
}

TEST(ModelClient, ServerErrorsForeverGiveUpAfterTheBudget) {
  FakeProvider server;
  server.set_default([](const test::SeenRequest&) { return fake::error(500, "{}"); });
  const auto outcome = run(server, "openai:g", false, {});
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.failure->kind, FailureKind::fail_sample);
  EXPECT_EQ(server.seen().size(), 3u);
}

TEST(ModelClient, BadRequestAndShouldRetryFalseAreNotRetried) {
  FakeProvider server;
  const auto bad = run(
      server, "openai:g", false,
      {fake::error(400, R"({"error":{"message":"bad param","type":"invalid_request_error"}})")});
  EXPECT_EQ(bad.failure->kind, FailureKind::fail_sample);
  EXPECT_EQ(bad.failure->message, "HTTP 400 invalid_request_error: bad param");
  const auto told =
      run(server, "openai:g", false, {fake::error(500, "{}", {{"x-should-retry", "false"}})});
  EXPECT_EQ(told.attempts.size(), 1u);
  EXPECT_EQ(server.seen().size(), 2u);
}

TEST(ModelClient, HintLongerThanTheCapStopsTheProvider) {
  FakeProvider server;
  const auto outcome =
      run(server, "openai:g", false, {fake::error(429, "{}", {{"retry-after", "3600"}})});
  EXPECT_EQ(outcome.failure->kind, FailureKind::stop_provider);
  EXPECT_EQ(outcome.failure->message, "HTTP 429 (asked to wait 3600 s)");
}

TEST(ModelClient, MalformedJsonIsRetriedOnceThenFailsTheSample) {
  FakeProvider server;
  FakeReply broken;
  broken.body = "{\"choices\": [";
  const auto recovered = run(server, "openai:g", false, {broken, fake::chat(kAnswer)});
  EXPECT_TRUE(recovered.ok());
  EXPECT_EQ(recovered.attempts.size(), 2u);
  const auto failed = run(server, "openai:g", false, {broken, broken, fake::chat(kAnswer)});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.failure->kind, FailureKind::fail_sample);
  EXPECT_EQ(failed.attempts.size(), 2u);
  EXPECT_EQ(failed.raw_response, broken.body);
}

TEST(ModelClient, StreamCutBeforeItsTerminalEventIsRetried) {
  FakeProvider server;
  struct Case {
    std::string name;
    FakeReply cut;
    FakeReply good;
  };
  auto aborted = fake::anthropic_stream(kAnswer, "end_turn", "", false);
  aborted.abort_after_chunks = true;
  const std::vector<Case> cases = {
      {"openai:g", fake::chat_stream(kAnswer, "stop", "", false), fake::chat_stream(kAnswer)},
      {"openai-responses:g", fake::responses_stream(kAnswer, "completed", "", false),
       fake::responses_stream(kAnswer)},
      {"anthropic:c", fake::anthropic_stream(kAnswer, "end_turn", "", false),
       fake::anthropic_stream(kAnswer)},
      {"anthropic:c", aborted, fake::anthropic_stream(kAnswer)},
      {"gemini:g", fake::gemini_stream(kAnswer, "STOP", "", false), fake::gemini_stream(kAnswer)},
  };
  for (const auto& test : cases) {
    const auto outcome = run(server, test.name, true, {test.cut, test.good});
    ASSERT_TRUE(outcome.ok()) << test.name;
    ASSERT_EQ(outcome.attempts.size(), 2u) << test.name;
    EXPECT_NE(outcome.attempts[0].error, "") << test.name;
    EXPECT_EQ(outcome.result->text, kAnswer) << test.name;
  }
}

TEST(ModelClient, ErrorEventInsideAStreamIsClassified) {
  FakeProvider server;
  FakeReply overloaded;
  overloaded.content_type = "text/event-stream";
  overloaded.chunks = {
      "event: error\ndata: "
      "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"
      "\n\n"};
  const auto outcome =
      run(server, "anthropic:c", true, {overloaded, fake::anthropic_stream(kAnswer)});
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(outcome.attempts[0].error, "error in stream: overloaded_error: Overloaded");
}

TEST(ModelClient, StalledStreamIsAbortedAtTheStallTimeoutAndRetried) {
  FakeProvider server;
  auto stalled = fake::chat_stream(kAnswer);
  stalled.stall_before_chunk = 2;
  stalled.stall_ms = 800;
  const auto outcome = run(server, "openai:g", true, {stalled, fake::chat_stream(kAnswer)});
  ASSERT_TRUE(outcome.ok());
  ASSERT_EQ(outcome.attempts.size(), 2u);
  EXPECT_EQ(outcome.attempts[0].error, "transport: stalled: no data for 300 ms");
  EXPECT_LT(outcome.attempts[0].latency_s, 0.7);
}

TEST(ModelClient, OverallTimeoutEndsASlowAnswer) {
  FakeProvider server;
  auto slow = fake::chat(kAnswer);
  slow.latency_ms = 800;
  auto options = fast_options(false);
  options.timeouts.overall_ms = 300;
  options.max_attempts_other = 1;
  const auto outcome = run(server, "openai:g", false, {slow}, options);
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.failure->message,
            "transport: timed out after 300 ms (gave up after 1 attempts)");
}

TEST(ModelClient, RefusedConnectionIsRetriedThenFails) {
  int port = 0;
  {
    FakeProvider closed;
    port = closed.port();
  }
  auto spec =
      parse_model_name("openai-compat:m", "http://127.0.0.1:" + std::to_string(port) + "/v1");
  HttpModelClient client(spec, "", fast_options(true));
  const auto outcome = client.generate(request());
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.attempts.size(), 3u);
  EXPECT_EQ(outcome.attempts[0].error.rfind("transport: ", 0), 0u);
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
