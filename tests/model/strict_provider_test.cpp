// The model clients against the strict provider (tests/model/strict_provider.h), issue 23 items
// 1-5: every model family answers at pkb's defaults (32000 output tokens) and with reasoning high,
// in one request, because each request is built from the model table; the bodies carry the shape
// each family takes; a model the table does not know learns its limits from the 400s.
#include "tests/model/strict_provider.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/model/model_client.h"
#include "tests/model/client_setup.h"

namespace pkb::model {
namespace {

using namespace client_test;

constexpr int kOldDefaultMaxTokens = 32000;  // what pkb sent before the model table

struct Strict {
  FakeProvider server;
  Strict(int silent_ms = 0) { test::make_strict(server, {kAnswer, silent_ms}); }
  ModelOutcome ask(HttpModelClient& client, const std::string& reasoning,
                   std::optional<double> temperature = std::nullopt) {
    ModelRequest asked = request();
    asked.max_tokens = kOldDefaultMaxTokens;
    asked.reasoning = reasoning;
    asked.temperature = temperature;
    return client.generate(asked);
  }
  ModelOutcome ask(const std::string& name, const std::string& reasoning,
                   std::optional<double> temperature = std::nullopt, bool stream = true) {
    HttpModelClient client(spec_for(name, server), kKey, fast_options(stream));
    return ask(client, reasoning, temperature);
  }
  nlohmann::json last_body() const { return nlohmann::json::parse(server.seen().back().body); }
};

const std::vector<std::string> kKnownFamilies = {"openai:gpt-4o",
                                                 "openai:o3",
                                                 "openai-responses:gpt-5",
                                                 "anthropic:claude-3-5-haiku-20241022",
                                                 "anthropic:claude-3-7-sonnet-20250219",
                                                 "anthropic:claude-opus-4-1",
                                                 "anthropic:claude-opus-4-6",
                                                 "gemini:gemini-2.0-flash",
                                                 "gemini:gemini-2.5-pro",
                                                 "gemini:gemini-2.5-flash",
                                                 "gemini:gemini-3-pro-preview",
                                                 "gemini:gemini-3-flash-preview"};

TEST(StrictProvider, EveryModelFamilyAnswersAtTheDefaultsAndWithReasoningHighInOneRequest) {
  Strict strict;
  for (const std::string& name : kKnownFamilies)
    for (const std::string reasoning : {"", "low", "medium", "high"})
      for (const bool stream : {true, false}) {
        const auto outcome = strict.ask(name, reasoning, std::nullopt, stream);
        const std::string label =
            name + " reasoning '" + reasoning + "'" + (stream ? "" : " whole");
        ASSERT_TRUE(outcome.ok()) << label << ": " << outcome.failure->message;
        EXPECT_EQ(outcome.attempts.size(), 1u) << label;
        EXPECT_TRUE(outcome.adjustments.empty()) << label;
        EXPECT_EQ(outcome.result->text, kAnswer) << label;
      }
}

TEST(StrictProvider, OutputCapsComeFromTheModel) {  // issue 23 item 1
  Strict strict;
  ASSERT_TRUE(strict.ask("openai:gpt-4o", "").ok());
  EXPECT_EQ(strict.last_body().at("max_completion_tokens"), 16384);
  ASSERT_TRUE(strict.ask("anthropic:claude-3-5-haiku-20241022", "").ok());
  EXPECT_EQ(strict.last_body().at("max_tokens"), 8192);
  ASSERT_TRUE(strict.ask("gemini:gemini-2.0-flash", "").ok());
  EXPECT_EQ(strict.last_body().at("generationConfig").at("maxOutputTokens"), 8192);
  ASSERT_TRUE(strict.ask("openai:o3", "high").ok());
  EXPECT_EQ(strict.last_body().at("max_completion_tokens"), kOldDefaultMaxTokens);
}

TEST(StrictProvider, NoTemperatureBesideReasoning) {  // issue 23 item 2
  Strict strict;
  for (const std::string name :
       {"openai:o3", "openai-responses:gpt-5", "anthropic:claude-3-7-sonnet-20250219",
        "anthropic:claude-opus-4-6"}) {
    const auto outcome = strict.ask(name, "high", 0.7);
    ASSERT_TRUE(outcome.ok()) << name << ": " << outcome.failure->message;
    EXPECT_EQ(outcome.attempts.size(), 1u) << name;
    EXPECT_FALSE(strict.last_body().contains("temperature")) << name;
  }
  ASSERT_TRUE(strict.ask("anthropic:claude-3-7-sonnet-20250219", "", 0.7).ok());
  EXPECT_EQ(strict.last_body().at("temperature"), 0.7);  // no thinking: the temperature is sent
  ASSERT_TRUE(strict.ask("openai:gpt-4o", "high", 0.7).ok());
  EXPECT_EQ(strict.last_body().at("temperature"), 0.7);
  EXPECT_FALSE(strict.last_body().contains("reasoning_effort"));
}

TEST(StrictProvider, AnthropicThinkingTakesEachFamilysShape) {  // issue 23 item 3
  Strict strict;
  ASSERT_TRUE(strict.ask("anthropic:claude-3-5-haiku-20241022", "high").ok());
  EXPECT_FALSE(strict.last_body().contains("thinking"));
  EXPECT_FALSE(strict.last_body().contains("output_config"));
  ASSERT_TRUE(strict.ask("anthropic:claude-3-7-sonnet-20250219", "high").ok());
  const auto budget = strict.last_body();
  EXPECT_EQ(budget.at("thinking"), (nlohmann::json{{"type", "enabled"}, {"budget_tokens", 24576}}));
  EXPECT_LT(budget["thinking"]["budget_tokens"], budget.at("max_tokens"));
  EXPECT_FALSE(budget.contains("output_config"));
  ASSERT_TRUE(strict.ask("anthropic:claude-opus-4-1", "high").ok());
  EXPECT_EQ(strict.last_body().at("thinking").at("budget_tokens"), 24576);
  EXPECT_EQ(strict.last_body().at("max_tokens"), 32000);
  ASSERT_TRUE(strict.ask("anthropic:claude-opus-4-6", "medium").ok());
  EXPECT_EQ(strict.last_body().at("thinking"), (nlohmann::json{{"type", "adaptive"}}));
  EXPECT_EQ(strict.last_body().at("output_config"), (nlohmann::json{{"effort", "medium"}}));
}

TEST(StrictProvider, GeminiTakesABudgetOrALevelByGeneration) {  // issue 23 item 4
  Strict strict;
  auto thinking = [&strict] {
    return strict.last_body().at("generationConfig").value("thinkingConfig", nlohmann::json());
  };
  ASSERT_TRUE(strict.ask("gemini:gemini-2.5-pro", "high").ok());  // 32768, less room for the answer
  EXPECT_EQ(thinking(),
            (nlohmann::json{{"thinkingBudget", 32000 - 4096}, {"includeThoughts", true}}));
  ASSERT_TRUE(strict.ask("gemini:gemini-2.5-flash", "low").ok());
  EXPECT_EQ(thinking().at("thinkingBudget"), 1024);
  ASSERT_TRUE(strict.ask("gemini:gemini-3-pro-preview", "medium").ok());  // LOW or HIGH only
  EXPECT_EQ(thinking(), (nlohmann::json{{"thinkingLevel", "HIGH"}, {"includeThoughts", true}}));
  ASSERT_TRUE(strict.ask("gemini:gemini-3-flash-preview", "medium").ok());
  EXPECT_EQ(thinking().at("thinkingLevel"), "MEDIUM");
  ASSERT_TRUE(strict.ask("gemini:gemini-2.0-flash", "high").ok());
  EXPECT_TRUE(thinking().is_null());
  ASSERT_TRUE(strict.ask("gemini:gemini-2.5-pro", "").ok());  // thoughts keep the stream busy
  EXPECT_EQ(thinking(), (nlohmann::json{{"includeThoughts", true}}));
}

TEST(StrictProvider, ResponsesAsksForNoSummaryByDefault) {  // issue 23 item 5
  Strict strict;
  const auto outcome = strict.ask("openai-responses:gpt-5", "high");
  ASSERT_TRUE(outcome.ok()) << outcome.failure->message;
  EXPECT_EQ(strict.last_body().at("reasoning"), (nlohmann::json{{"effort", "high"}}));
}

TEST(StrictProvider, UnknownModelsLearnTheirLimitsFromThe400s) {
  Strict strict;
  HttpModelClient client(spec_for("openai:gpt-9-mini", strict.server), kKey, fast_options(true));
  const auto first = strict.ask(client, "", 0.7);
  ASSERT_TRUE(first.ok()) << first.failure->message;
  ASSERT_EQ(first.attempts.size(), 3u);  // max_tokens lowered, then the temperature dropped
  EXPECT_EQ(first.attempts[0].http_status, 400);
  ASSERT_EQ(first.adjustments.size(), 2u);
  EXPECT_EQ(first.adjustments[0],
            (nlohmann::json{{"parameter", "max_tokens"},
                            {"action", "lowered"},
                            {"sent", 32000},
                            {"now", 16384},
                            {"reason",
                             "max_tokens is too large: 32000. This model supports at most 16384 "
                             "completion tokens, whereas you provided 32000."}}));
  EXPECT_EQ(first.adjustments[1].at("parameter"), "temperature");
  EXPECT_EQ(first.adjustments[1].at("action"), "dropped");
  const auto second = strict.ask(client, "", 0.7);  // learned: asked right the first time
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second.attempts.size(), 1u);
  EXPECT_EQ(second.adjustments.size(), 2u);

  // Taken for a current model (adaptive thinking with an effort), it is an older one: the cap,
  // then the effort, then the thinking shape are each rejected once and changed once.
  const auto legacy = strict.ask("anthropic:claude-legacy-9", "high");
  ASSERT_TRUE(legacy.ok()) << legacy.failure->message;
  EXPECT_EQ(legacy.attempts.size(), 4u);
  ASSERT_EQ(legacy.adjustments.size(), 3u);
  EXPECT_EQ(legacy.adjustments[0].at("now"), 8192);
  EXPECT_EQ(legacy.adjustments[1].at("parameter"), "effort");
  EXPECT_EQ(legacy.adjustments[2].at("parameter"), "reasoning");
  EXPECT_FALSE(strict.last_body().contains("thinking"));

  const auto vllm = strict.ask("openai-compat:qwen-8k", "");
  ASSERT_TRUE(vllm.ok()) << vllm.failure->message;
  EXPECT_EQ(vllm.adjustments.at(0).at("now"), 8192 - 100);
}

TEST(StrictProvider, ARejectionIsActedOnOncePerParameterAndNeverLoops) {
  FakeProvider server;
  const std::string rejected =
      R"({"error":{"message":"Unsupported value: 'temperature' does not support 0.7 with this model.","type":"invalid_request_error","param":"temperature","code":"unsupported_value"}})";
  server.set_default([&rejected](const test::SeenRequest&) { return fake::error(400, rejected); });
  HttpModelClient client(spec_for("openai:gpt-4o", server), kKey, fast_options(true));
  ModelRequest asked = request();
  asked.temperature = 0.7;
  const auto outcome = client.generate(asked);
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.attempts.size(), 2u);
  EXPECT_EQ(outcome.failure->kind, FailureKind::fail_sample);
  const auto bodies = server.seen();
  EXPECT_EQ(nlohmann::json::parse(bodies[0].body).at("messages"),
            nlohmann::json::parse(bodies[1].body).at("messages"));  // the prompt never changes
}

}  // namespace
}  // namespace pkb::model
