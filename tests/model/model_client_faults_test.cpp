// The fault list of issue 6 against the fake provider: rate limits with and without hints, quota,
// 5xx then success, malformed JSON, cut streams, stalls, timeouts, refused connections. Deadlines
// and backoff are short so the program runs in a few seconds; every loop is bounded.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "src/model/model_client.h"
#include "tests/model/client_setup.h"

namespace pkb::model {
namespace {

using namespace client_test;

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

}  // namespace
}  // namespace pkb::model
