// Model names, keys from the environment, SSE framing, error classification and durations.
#include "src/model/model_name.h"

#include <gtest/gtest.h>

#include <ctime>

#include <cstdlib>

#include "src/common/error.h"
#include "src/model/error_policy.h"
#include "src/model/sse.h"

namespace pkb::model {
namespace {

std::string usage_error(const std::string& name, const std::string& base_url = "") {
  try {
    parse_model_name(name, base_url);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(ModelName, ParsesEveryProvider) {
  const auto openai = parse_model_name("openai:gpt-x", "");
  EXPECT_EQ(openai.provider, Provider::openai);
  EXPECT_EQ(openai.api, Api::chat);
  EXPECT_EQ(openai.model, "gpt-x");
  EXPECT_EQ(openai.base_url, "https://api.openai.com/v1");
  EXPECT_EQ(parse_model_name("openai-responses:gpt-x", "").api, Api::responses);
  EXPECT_EQ(parse_model_name("anthropic:claude-x", "").api, Api::messages);
  EXPECT_EQ(parse_model_name("gemini:gemini-x", "").api, Api::generate_content);
  const auto together = parse_model_name("together:org/model-x", "");
  EXPECT_EQ(together.model, "org/model-x");
  EXPECT_EQ(together.api, Api::chat);
  const auto compat = parse_model_name("openai-compat:llama:8b", "http://127.0.0.1:8000/v1/");
  EXPECT_EQ(compat.model, "llama:8b");
  EXPECT_EQ(compat.base_url, "http://127.0.0.1:8000/v1");
  EXPECT_EQ(parse_model_name("replay:results/run1", "").model, "results/run1");
}

TEST(ModelName, BadNamesAreOneLineUsageErrors) {
  EXPECT_EQ(usage_error("gpt-x"),
            "--model gpt-x: expected PROVIDER:MODEL with PROVIDER one of openai, openai-responses, "
            "anthropic, gemini, "
            "together, openai-compat, replay");
  EXPECT_EQ(usage_error("antropic:claude"),
            "--model antropic:claude: unknown provider 'antropic', did you mean 'anthropic'?");
  EXPECT_EQ(usage_error("openai:"), "--model openai:: no model after 'openai:'");
  EXPECT_EQ(usage_error("together:model"), "--model together:model: expected together:ORG/MODEL");
  EXPECT_EQ(usage_error("openai-compat:m"),
            "--model openai-compat:m: openai-compat needs --base-url URL (e.g. "
            "http://localhost:8000/v1)");
  EXPECT_EQ(usage_error("openai-compat:m", "localhost:8000"),
            "--base-url localhost:8000: expected http://HOST[:PORT][/PATH] or https://...");
  EXPECT_EQ(usage_error("openai-compat:m", "http://:80/v1"),
            "--base-url http://:80/v1: expected http://HOST[:PORT][/PATH] or https://...");
  EXPECT_EQ(usage_error("openai-compat:m", "http://h:99999"),
            "--base-url http://h:99999: expected http://HOST[:PORT][/PATH] or https://...");
  EXPECT_EQ(usage_error("openai-compat:m", "ftp://h/v1"),
            "--base-url ftp://h/v1: expected http://HOST[:PORT][/PATH] or https://...");
}

TEST(ModelName, MissingKeyNamesTheVariable) {
  unsetenv("ANTHROPIC_API_KEY");
  try {
    api_key_from_env(parse_model_name("anthropic:claude-x", ""));
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(), "--model anthropic:claude-x: ANTHROPIC_API_KEY is not set");
  }
  unsetenv("GEMINI_API_KEY");
  setenv("GOOGLE_API_KEY", "g-key", 1);
  EXPECT_EQ(api_key_from_env(parse_model_name("gemini:x", "")), "g-key");
  unsetenv("GOOGLE_API_KEY");
  unsetenv("OPENAI_COMPAT_API_KEY");
  EXPECT_EQ(api_key_from_env(parse_model_name("openai-compat:m", "http://h:1")), "");
}

TEST(Sse, ParsesAnySplitOfTheBytes) {
  const std::string stream =
      "event: a\r\ndata: 1\r\ndata: 2\r\n\r\n: comment\n\ndata: x\rdata:y\r\r";
  const auto whole = parse_sse(stream);
  ASSERT_EQ(whole.size(), 2u);
  EXPECT_EQ(whole[0].event, "a");
  EXPECT_EQ(whole[0].data, "1\n2");
  EXPECT_EQ(whole[1].event, "");
  EXPECT_EQ(whole[1].data, "x\ny");
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    SseParser parser;
    auto events = parser.feed(stream.substr(0, cut));
    for (auto& event : parser.feed(stream.substr(cut))) events.push_back(event);
    ASSERT_EQ(events.size(), 2u) << cut;
    EXPECT_EQ(events[0].data, "1\n2") << cut;
    EXPECT_EQ(events[1].data, "x\ny") << cut;
  }
}

TEST(Sse, DropsAnEventWithoutItsBlankLine) {
  EXPECT_EQ(parse_sse("data: 1\n\ndata: [DONE]").size(), 1u);
}

TEST(ErrorPolicy, ParsesDurations) {
  EXPECT_DOUBLE_EQ(*parse_duration_s("37s"), 37);
  EXPECT_DOUBLE_EQ(*parse_duration_s("45.83s"), 45.83);
  EXPECT_DOUBLE_EQ(*parse_duration_s("12ms"), 0.012);
  EXPECT_DOUBLE_EQ(*parse_duration_s("6m0s"), 360);
  EXPECT_FALSE(parse_duration_s("soon"));
}

TEST(ErrorPolicy, ClassifiesByStatusTypeAndCode) {
  auto kind = [](long status, const std::string& body,
                 std::map<std::string, std::string> headers = {}) {
    return http_failure(status, headers, body).kind;
  };
  EXPECT_EQ(kind(429, R"({"error":{"message":"slow down","type":"rate_limit_exceeded"}})"),
            FailureKind::retry);
  EXPECT_EQ(
      kind(
          429,
          R"({"error":{"message":"pay","type":"insufficient_quota","code":"insufficient_quota"}})"),
      FailureKind::stop_provider);
  EXPECT_EQ(
      kind(
          429,
          R"({"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"GenerateRequestsPerDayPerProjectPerModel"}]}]}})"),
      FailureKind::stop_provider);
  EXPECT_EQ(
      kind(529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"),
      FailureKind::retry);
  EXPECT_EQ(kind(502, "<html><head><title>502 Bad Gateway</title></head></html>"),
            FailureKind::retry);
  EXPECT_EQ(
      kind(400, R"({"object":"error","message":"too long","type":"BadRequestError","code":400})"),
      FailureKind::fail_sample);
  EXPECT_EQ(kind(401, "{}"), FailureKind::stop_provider);
  EXPECT_EQ(kind(500, "{}", {{"x-should-retry", "false"}}), FailureKind::fail_sample);
  EXPECT_EQ(kind(400, "{}", {{"x-should-retry", "true"}}), FailureKind::retry);
  EXPECT_EQ(
      http_failure(502, {}, "<html><head><title>502 Bad Gateway</title></head></html>").message,
      "HTTP 502: 502 Bad Gateway");
}

TEST(ErrorPolicy, ReadsWaitHintsInOrder) {
  EXPECT_DOUBLE_EQ(
      *http_failure(429, {{"retry-after-ms", "250"}, {"retry-after", "9"}}, "{}").wait_hint_s,
      0.25);
  EXPECT_DOUBLE_EQ(*http_failure(429, {{"retry-after", "3"}}, "{}").wait_hint_s, 3);
  {  // an HTTP date 30 s ahead
    const std::time_t ahead = std::time(nullptr) + 30;
    char date[64];
    std::strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", std::gmtime(&ahead));
    const double wait = *http_failure(503, {{"retry-after", date}}, "{}").wait_hint_s;
    EXPECT_GE(wait, 28);
    EXPECT_LE(wait, 30);
    EXPECT_FALSE(http_failure(503, {{"retry-after", "soon"}}, "{}").wait_hint_s.has_value());
  }
  EXPECT_DOUBLE_EQ(
      *http_failure(
           429, {},
           R"({"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"1.5s"}]}})")
           .wait_hint_s,
      1.5);
  EXPECT_DOUBLE_EQ(
      *http_failure(
           429, {{"x-ratelimit-reset-requests", "1s"}, {"x-ratelimit-reset-tokens", "6m0s"}}, "{}")
           .wait_hint_s,
      360);
  EXPECT_FALSE(http_failure(429, {}, "{}").wait_hint_s);
}

TEST(ErrorPolicy, BackoffGrowsWithJitterUnderTheCap) {
  std::mt19937_64 random(7);
  BackoffPolicy policy{1.0, 8.0, 600};
  for (int retry = 0; retry < 10; ++retry) {
    const double ceiling = std::min(8.0, std::pow(2.0, retry));
    const double delay = backoff_delay_s(policy, retry, random);
    EXPECT_GE(delay, 0.5 * ceiling);
    EXPECT_LE(delay, ceiling);
  }
}

}  // namespace
}  // namespace pkb::model
