// The model table: the built-in models.json parses and covers every provider; patterns match as a
// shell does; a user's rules go first; a bad table is one located error; and the settings a rule
// gives one request (caps, temperature beside reasoning, thinking budgets below the cap).
#include "src/model/model_table.h"

#include <gtest/gtest.h>

#include "src/common/error.h"
#include "src/model/request_settings.h"

namespace pkb::model {
namespace {

ModelSpec spec(const std::string& name) { return parse_model_name(name, "http://127.0.0.1:9/v1"); }

std::string parse_error(const std::string& text) {
  try {
    ModelTable::parse(text, "my.json");
  } catch (const InputError& error) {
    return error.what();
  }
  return "(parsed)";
}

ModelRequest asked(int max_tokens, const std::string& reasoning,
                   std::optional<double> temperature = std::nullopt) {
  ModelRequest request;
  request.max_tokens = max_tokens;
  request.reasoning = reasoning;
  request.temperature = temperature;
  return request;
}

TEST(ModelTable, BuiltInTableHasACatchAllForEveryProvider) {
  const ModelTable table = ModelTable::builtin();
  for (const std::string provider :
       {"openai", "openai-responses", "anthropic", "gemini", "together", "openai-compat"}) {
    const std::string name =
        provider + (provider == "together" ? ":org/unheard-of" : ":unheard-of");
    EXPECT_NO_THROW(table.rule_for(spec(name))) << name;
  }
  EXPECT_EQ(table.rule_for(spec("openai:gpt-4o-2024-08-06")).max_output_tokens, 16384);
  EXPECT_EQ(table.rule_for(spec("openai:gpt-4o-2024-05-13")).max_output_tokens, 4096);
  EXPECT_EQ(table.rule_for(spec("openai:gpt-5-chat-latest")).reasoning, ReasoningStyle::none);
  EXPECT_EQ(table.rule_for(spec("openai:gpt-5.1")).temperature, TemperatureRule::never);
  EXPECT_EQ(table.rule_for(spec("anthropic:claude-sonnet-4-5-20250929")).reasoning,
            ReasoningStyle::budget);
  EXPECT_EQ(table.rule_for(spec("anthropic:claude-opus-4-7")).reasoning, ReasoningStyle::adaptive);
  EXPECT_EQ(table.rule_for(spec("gemini:gemini-2.5-flash-lite")).reasoning, ReasoningStyle::budget);
  EXPECT_EQ(table.rule_for(spec("gemini:gemini-3.1-pro-preview")).effort_values.at("medium"),
            "HIGH");
  EXPECT_EQ(table.rule_for(spec("gemini:gemini-2.5-pro")).origin, "built-in models.json rules[17]");
}

TEST(ModelTable, PatternsMatchLikeAShell) {
  EXPECT_TRUE(glob_match("gpt-4o*", "gpt-4o"));
  EXPECT_TRUE(glob_match("gemini-3*-pro*", "gemini-3.1-pro-preview"));
  EXPECT_TRUE(glob_match("o?", "o3"));
  EXPECT_FALSE(glob_match("o?", "o33"));
  EXPECT_FALSE(glob_match("gpt-4o", "gpt-4o-mini"));
  EXPECT_TRUE(glob_match("*", ""));
}

TEST(ModelTable, AUsersRulesGoFirst) {
  ModelTable table = ModelTable::builtin();
  table.put_first(ModelTable::parse(
      R"({"rules": [{"provider": "openai", "models": ["gpt-4o"], "max_output_tokens": 1000,
                     "temperature": "never", "reasoning": "none"}]})",
      "my.json"));
  const ModelRule& mine = table.rule_for(spec("openai:gpt-4o"));
  EXPECT_EQ(mine.max_output_tokens, 1000);
  EXPECT_EQ(mine.origin, "my.json rules[0]");
  EXPECT_EQ(table.rule_for(spec("openai:gpt-4o-mini")).max_output_tokens, 16384);
  EXPECT_EQ(default_max_tokens(mine), 1000);
}

TEST(ModelTable, BadTablesAreOneLocatedError) {
  EXPECT_EQ(parse_error("{"),
            "my.json: (file): expected a JSON object with \"rules\", got text "
            "that is not JSON");
  EXPECT_EQ(
      parse_error(R"({"rules": [{"provider": "openai", "models": ["x"], "max_output_token": 5}]})"),
      "my.json: rules[0].max_output_token: expected a known field (did you mean "
      "'max_output_tokens'?), got an unknown one");
  EXPECT_EQ(parse_error(R"({"rules": [{"provider": "opneai", "models": ["x"]}]})"),
            "my.json: rules[0].provider: expected one of openai, openai-responses, anthropic, "
            "gemini, together, openai-compat, got \"opneai\"");
  EXPECT_EQ(parse_error(
                R"({"rules": [{"provider": "gemini", "models": ["x"], "reasoning": "adaptive"}]})"),
            "my.json: rules[0].reasoning: expected one of none, budget, level for gemini, got "
            "\"adaptive\"");
  EXPECT_EQ(
      parse_error(
          R"({"rules": [{"provider": "anthropic", "models": ["x"], "reasoning": "budget"}]})"),
      "my.json: rules[0].reasoning_values: expected thinking tokens for low, medium and "
      "high, got null");
  EXPECT_EQ(
      parse_error(
          R"({"rules": [{"provider": "openai", "models": ["x"], "max_output_tokens": 0}]})"),
      "my.json: rules[0].max_output_tokens: expected a token count from 1 to 10000000, got 0");
  EXPECT_EQ(parse_error(R"({"rules": [{"provider": "openai", "models": []}]})"),
            "my.json: rules[0].models: expected a list of model-name patterns, got []");
  EXPECT_EQ(parse_error(R"({"schema_version": 2, "rules": []})"),
            "my.json: schema_version: expected 1, got 2");
}

TEST(RequestSettings, CapsTemperatureAndThinkingFollowTheRule) {
  const ModelTable table = ModelTable::builtin();
  std::vector<std::string> notes;
  const auto gpt4o = resolve_wire(table.rule_for(spec("openai:gpt-4o")), Provider::openai,
                                  asked(32000, "high", 0.7), {}, &notes);
  EXPECT_EQ(gpt4o.max_tokens, 16384);
  EXPECT_EQ(gpt4o.reasoning, ReasoningStyle::none);
  EXPECT_EQ(gpt4o.temperature, 0.7);
  EXPECT_EQ(notes, (std::vector<std::string>{
                       "max tokens 32000 lowered to 16384, the model's cap",
                       "reasoning high not sent: the model takes no reasoning parameter"}));
  notes.clear();
  const auto sonnet = resolve_wire(table.rule_for(spec("anthropic:claude-3-7-sonnet-latest")),
                                   Provider::anthropic, asked(20000, "high", 0.5), {}, &notes);
  EXPECT_EQ(sonnet.budget_tokens, 20000 - 4096);  // leaves room for the answer
  EXPECT_FALSE(sonnet.temperature);
  EXPECT_EQ(notes, (std::vector<std::string>{
                       "thinking budget 24576 lowered to 15904 to leave room for the answer",
                       "temperature 0.5 not sent: the model takes none beside reasoning"}));
  const auto tiny = resolve_wire(table.rule_for(spec("anthropic:claude-3-7-sonnet-latest")),
                                 Provider::anthropic, asked(4000, "low"), {});
  EXPECT_EQ(tiny.reasoning, ReasoningStyle::none);  // under Anthropic's 1024-token minimum
  const auto learned =
      resolve_wire(table.rule_for(spec("openai:o3")), Provider::openai, asked(32000, "high"),
                   {{Param::max_tokens, 8000, 32000, "too large"},
                    {Param::reasoning, std::nullopt, "high", ""}});
  EXPECT_EQ(learned.max_tokens, 8000);
  EXPECT_EQ(learned.reasoning, ReasoningStyle::none);
  EXPECT_EQ(to_json(learned), (nlohmann::json{{"max_tokens", 8000},
                                              {"temperature", nullptr},
                                              {"reasoning", nullptr},
                                              {"summary", false}}));
}

}  // namespace
}  // namespace pkb::model
