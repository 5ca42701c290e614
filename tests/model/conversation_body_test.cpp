// A conversation (earlier turns + this turn's message) in each provider's request body: the turns
// in order, with each provider's role names, and a first turn unchanged from a one-shot request.
#include <gtest/gtest.h>

#include "src/model/model_name.h"
#include "src/model/provider_api.h"

namespace pkb::model {
namespace {

ModelRequest conversation() {
  ModelRequest request;
  request.system = "be brief";
  request.history = {{"task", "answer 0"}, {"feedback 0", "answer 1"}};
  request.user = "feedback 1";
  request.turn = 2;
  request.max_tokens = 100;
  return request;
}

const WireSettings kWire{100, std::nullopt, ReasoningStyle::none, "", 0, false};

// (role, text) of each message, whatever the provider's shape.
using Messages = std::vector<std::pair<std::string, std::string>>;

TEST(ConversationBody, OpenAiChatSendsEveryTurnAsMessages) {
  const auto api = make_provider_api(parse_model_name("openai-compat:m", "http://127.0.0.1:9/v1"));
  const auto body = api->body(conversation(), kWire, false);
  Messages got;
  for (const auto& message : body["messages"])
    got.emplace_back(message["role"], message["content"]);
  EXPECT_EQ(got, (Messages{{"system", "be brief"},
                           {"user", "task"},
                           {"assistant", "answer 0"},
                           {"user", "feedback 0"},
                           {"assistant", "answer 1"},
                           {"user", "feedback 1"}}));
}

TEST(ConversationBody, AnthropicKeepsTheSystemApartAndAlternatesRoles) {
  const auto api = make_provider_api(parse_model_name("anthropic:claude-x", ""));
  const auto body = api->body(conversation(), kWire, false);
  EXPECT_EQ(body["system"], "be brief");
  Messages got;
  for (const auto& message : body["messages"])
    got.emplace_back(message["role"], message["content"]);
  EXPECT_EQ(got, (Messages{{"user", "task"},
                           {"assistant", "answer 0"},
                           {"user", "feedback 0"},
                           {"assistant", "answer 1"},
                           {"user", "feedback 1"}}));
}

TEST(ConversationBody, GeminiNamesTheModelsTurnsModel) {
  const auto api = make_provider_api(parse_model_name("gemini:gemini-x", ""));
  const auto body = api->body(conversation(), kWire, false);
  Messages got;
  for (const auto& content : body["contents"])
    got.emplace_back(content["role"], content["parts"][0]["text"]);
  EXPECT_EQ(got, (Messages{{"user", "task"},
                           {"model", "answer 0"},
                           {"user", "feedback 0"},
                           {"model", "answer 1"},
                           {"user", "feedback 1"}}));
}

TEST(ConversationBody, ResponsesSendsAnInputListOnlyForAConversation) {
  const auto api = make_provider_api(parse_model_name("openai-responses:gpt-x", ""));
  const auto body = api->body(conversation(), kWire, false);
  ASSERT_TRUE(body["input"].is_array());
  Messages got;
  for (const auto& message : body["input"]) got.emplace_back(message["role"], message["content"]);
  EXPECT_EQ(got, (Messages{{"user", "task"},
                           {"assistant", "answer 0"},
                           {"user", "feedback 0"},
                           {"assistant", "answer 1"},
                           {"user", "feedback 1"}}));
  ModelRequest first;
  first.user = "task";
  EXPECT_EQ(api->body(first, kWire, false)["input"], "task");  // one-shot requests are unchanged
}

TEST(ConversationSha, AFirstTurnHashesThePromptAloneAndALaterOneTheWholeConversation) {
  const std::string prompt_only = conversation_sha256({}, "task");
  EXPECT_EQ(prompt_only.size(), 64u);
  const auto request = conversation();
  const std::string whole = conversation_sha256(request.history, request.user);
  EXPECT_NE(whole, prompt_only);
  auto changed = request.history;
  changed[1].assistant = "answer 1 ";
  EXPECT_NE(conversation_sha256(changed, request.user), whole);
  EXPECT_EQ(conversation_sha256(request.history, request.user), whole);
}

}  // namespace
}  // namespace pkb::model
