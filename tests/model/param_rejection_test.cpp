// Reading a 400 for the parameter it blames, in each provider's words: OpenAI's error.param,
// Anthropic's and Gemini's messages, vLLM's context length; and what is never blamed twice.
#include "src/model/param_rejection.h"

#include <gtest/gtest.h>

namespace pkb::model {
namespace {

const WireSettings kEverything{32000, 0.7, ReasoningStyle::adaptive, "high", 0, true};

std::optional<Param> blamed(const std::string& body, const WireSettings& sent = kEverything,
                            const std::vector<RequestAdjustment>& done = {}) {
  const auto change = adjustment_for(parse_error_body(body), sent, done);
  if (!change) return std::nullopt;
  return change->param;
}

TEST(ParamRejection, FindsTheOutputCapInEachProvidersWords) {
  EXPECT_EQ(token_limit_in("max_tokens is too large: 32000. This model supports at most 16384 "
                           "completion tokens, whereas you provided 32000.",
                           32000),
            16384);
  EXPECT_EQ(token_limit_in("max_tokens: 32000 > 8192, which is the maximum allowed number of "
                           "output tokens for claude-3-5-haiku-20241022",
                           32000),
            8192);
  EXPECT_EQ(token_limit_in("Unable to submit request because it has a maxOutputTokens value of "
                           "100000 but the supported range is from 1 (inclusive) to 65537 "
                           "(exclusive).",
                           100000),
            65536);
  EXPECT_EQ(token_limit_in("This model's maximum context length is 8192 tokens. However, you "
                           "requested 32100 tokens (100 in the messages, 32000 in the "
                           "completion).",
                           32000),
            8092);
  EXPECT_EQ(token_limit_in("'max_tokens' or 'max_completion_tokens' is too large: 32000. This "
                           "model's maximum context length is 4096 tokens and your request has "
                           "96 input tokens (32000 > 4096 - 96).",
                           32000),
            4000);
  EXPECT_EQ(token_limit_in("max_output_tokens must be at most 16,384", 20000), 16384);
  EXPECT_FALSE(token_limit_in("max_tokens is too large", 32000));
  EXPECT_FALSE(token_limit_in("at most 64000", 32000));  // not below what was sent
}

TEST(ParamRejection, BlamesTheParameterTheErrorNames) {
  EXPECT_EQ(
      blamed(
          R"({"error":{"message":"Unsupported value: 'temperature' does not support 0.7","param":"temperature"}})"),
      Param::temperature);
  EXPECT_EQ(
      blamed(
          R"({"type":"error","error":{"type":"invalid_request_error","message":"`temperature` may only be set to 1 when thinking is enabled."}})"),
      Param::temperature);
  EXPECT_EQ(
      blamed(
          R"({"error":{"message":"Your organization must be verified to generate reasoning summaries.","param":"reasoning.summary"}})"),
      Param::summary);
  EXPECT_EQ(
      blamed(
          R"({"type":"error","error":{"message":"output_config: Extra inputs are not permitted"}})"),
      Param::effort);
  EXPECT_EQ(
      blamed(
          R"({"type":"error","error":{"message":"thinking.type: Input tag 'adaptive' found using 'type' does not match any of the expected tags: 'disabled', 'enabled'"}})"),
      Param::reasoning);
  EXPECT_EQ(
      blamed(
          R"({"error":{"code":400,"message":"Thinking level is not supported for this model.","status":"INVALID_ARGUMENT"}})"),
      Param::reasoning);
  EXPECT_EQ(
      blamed(
          R"({"error":{"message":"max_tokens is too large: 32000. This model supports at most 16384 completion tokens.","param":"max_tokens"}})"),
      Param::max_tokens);
}

TEST(ParamRejection, NeverBlamesWhatWasNotSentOrWasChangedBefore) {
  const WireSettings plain{1000, std::nullopt, ReasoningStyle::none, "", 0, false};
  EXPECT_FALSE(blamed(
      R"({"error":{"message":"temperature is not supported","param":"temperature"}})", plain));
  EXPECT_FALSE(
      blamed(R"({"error":{"message":"Thinking is not supported for this model."}})", plain));
  EXPECT_FALSE(
      blamed(R"({"error":{"message":"temperature is not supported","param":"temperature"}})",
             kEverything, {{Param::temperature, std::nullopt, 0.7, ""}}));
  EXPECT_FALSE(blamed(R"({"error":{"message":"messages: roles must alternate"}})"));
}

}  // namespace
}  // namespace pkb::model
