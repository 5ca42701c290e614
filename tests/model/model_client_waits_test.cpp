// Issue 23 items 6-8 at the client: a reasoning model silent before its first byte is waited for
// (the stall timeout starts at the first byte); a timeout once the provider had the request is
// retried once only and counted; connection failures in a row stop the client for every request;
// the retry hints proxies send; the key variable named after a 401; Anthropic's thinking tokens.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/model/model_client.h"
#include "tests/model/client_setup.h"
#include "tests/model/strict_provider.h"

namespace pkb::model {
namespace {

using namespace client_test;

TEST(ModelClientWaits, SilentReasoningOutlastsTheStallTimeout) {
  FakeProvider server;
  test::make_strict(server, {kAnswer, 800});  // 800 ms before the first byte, stall limit 300 ms
  for (const std::string name : {"openai:o3", "gemini:gemini-2.5-pro"}) {
    HttpModelClient client(spec_for(name, server), kKey, fast_options(true));
    ModelRequest asked = request();
    asked.reasoning = "high";
    const auto outcome = client.generate(asked);
    ASSERT_TRUE(outcome.ok()) << name << ": " << outcome.failure->message;
    EXPECT_EQ(outcome.attempts.size(), 1u) << name;
  }
  EXPECT_EQ(server.seen().size(), 2u);
}

TEST(ModelClientWaits, TimeoutAfterTheProviderHadTheRequestIsRetriedOnceAndCounted) {
  FakeProvider server;
  test::make_strict(server, {kAnswer, 1000});
  auto options = fast_options(true);
  options.timeouts.first_byte_ms = 300;
  HttpModelClient client(spec_for("openai:o3", server), kKey, options);
  const auto outcome = client.generate(request());
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(server.seen().size(), 2u);  // not max_attempts_other (3): each try may be billed
  EXPECT_EQ(outcome.timeouts_after_accept, 2);
  EXPECT_EQ(outcome.failure->kind, FailureKind::fail_sample);
  EXPECT_EQ(outcome.failure->message,
            "transport: no first byte within 300 ms (2 timeouts after the provider had the "
            "request; not retried again, as each may be billed)");
  EXPECT_EQ(outcome.attempts[0].error, "transport: no first byte within 300 ms");
}

TEST(ModelClientWaits, ConnectionFailuresInARowStopTheClientForEveryRequest) {
  int port = 0;
  {
    FakeProvider gone;
    port = gone.port();
  }
  const std::string base = "http://127.0.0.1:" + std::to_string(port) + "/v1";
  auto options = fast_options(true);
  options.max_attempts_other = 8;  // the stop comes from the count across requests, not the budget
  HttpModelClient client(parse_model_name("openai-compat:m", base), "", options);
  const auto first = client.generate(request());
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.attempts.size(), 3u);
  EXPECT_EQ(first.failure->kind, FailureKind::stop_run);
  EXPECT_EQ(first.failure->message,
            base + ": 3 connections in a row failed (Couldn't connect to server)");
  EXPECT_EQ(client.stop_reason(), first.failure->message);
  const auto second = client.generate(request());  // never sent
  EXPECT_EQ(second.attempts.size(), 0u);
  EXPECT_EQ(second.failure->kind, FailureKind::stop_run);
}

TEST(ConnectionWatch, AnyConnectionStartsTheCountAgain) {
  ConnectionWatch watch(3);
  EXPECT_FALSE(watch.failed("refused"));
  EXPECT_FALSE(watch.failed("refused"));
  watch.connected();
  EXPECT_FALSE(watch.failed("refused"));
  EXPECT_FALSE(watch.failed("refused"));
  EXPECT_EQ(watch.failed("no route"), "3 connections in a row failed (no route)");
  // Past the limit every report is the same, so racing requests agree on the reason.
  EXPECT_EQ(watch.failed("no route"), "3 connections in a row failed (no route)");
}

TEST(ModelClientWaits, HonoursTheRetryHintsProxiesSend) {
  const std::string limited = R"({"error":{"message":"slow down","type":"rate_limit_exceeded"}})";
  const std::vector<std::pair<std::map<std::string, std::string>, double>> cases = {
      {{{"ratelimit-reset", "0.2"}}, 0.2},           // IETF RateLimit header (Kong, Envoy)
      {{{"x-ratelimit-reset", "150ms"}}, 0.15},      // a duration, not a number
      {{{"llm_provider-retry-after", "0.1"}}, 0.1},  // LiteLLM passing the upstream's on
      {{{"llm_provider-retry-after-ms", "120"}}, 0.12},
      {{{"x-ratelimit-reset-requests", "20ms"}}, 0.02},
  };
  FakeProvider server;
  for (const auto& [headers, wait] : cases) {
    const auto outcome = run(server, "openai:g", true,
                             {fake::error(429, limited, headers), fake::chat_stream(kAnswer)});
    ASSERT_TRUE(outcome.ok()) << headers.begin()->first;
    EXPECT_DOUBLE_EQ(outcome.attempts[0].wait_s, wait) << headers.begin()->first;
  }
}

TEST(ModelClientWaits, UnauthorizedNamesTheKeyVariable) {
  FakeProvider server;
  const std::string denied =
      R"({"error":{"message":"Authentication Error, No api key passed in.","type":"auth_error","code":"401"}})";
  server.script({fake::error(401, denied)});
  HttpModelClient without(spec_for("openai-compat:m", server), "", fast_options(true));
  EXPECT_EQ(
      without.generate(request()).failure->message,
      "HTTP 401 auth_error: Authentication Error, No api key passed in. (no key was sent: set "
      "OPENAI_COMPAT_API_KEY)");
  server.script({fake::error(401, denied)});
  HttpModelClient with(spec_for("anthropic:c", server), kKey, fast_options(true));
  EXPECT_EQ(with.generate(request()).failure->message,
            "HTTP 401 auth_error: Authentication Error, No api key passed in. (check "
            "ANTHROPIC_API_KEY)");
}

TEST(ModelClientWaits, NotFoundOnAGivenBaseUrlSaysWhereThePathGoes) {
  FakeProvider server;
  server.script({fake::error(404, R"({"detail":"Not Found"})")});
  HttpModelClient client(parse_model_name("gemini:g", server.base_url("")), kKey,
                         fast_options(true));
  EXPECT_EQ(client.generate(request()).failure->message,
            "HTTP 404 (is --base-url right? gemini posts to "
            "BASE/models/MODEL:streamGenerateContent, BASE ending in /v1beta)");
}

TEST(ModelClientWaits, ReportsAnthropicThinkingTokensStreamedAndNot) {
  for (const bool stream : {true, false}) {
    FakeProvider server;
    const auto outcome = run(server, "anthropic:claude-x", stream,
                             {stream ? fake::anthropic_stream(kAnswer, "end_turn", kThinking)
                                     : fake::anthropic(kAnswer, "end_turn", kThinking)},
                             fast_options(stream));
    ASSERT_TRUE(outcome.ok());
    EXPECT_EQ(outcome.result->usage.reasoning, 30) << stream;
    EXPECT_EQ(outcome.result->usage.output, 50) << stream;
    EXPECT_EQ(outcome.result->usage.input, stream ? 90 : 100) << stream;  // null later: kept
  }
}

}  // namespace
}  // namespace pkb::model
