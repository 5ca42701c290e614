// The model table (src/model/models.json, docs/MODELS.md): per provider and model-name pattern,
// which request parameters a model takes and their limits. Requests are built from the first rule
// that matches (request_settings.h); rules of a user's file come before the built-in ones, so a
// model is added or corrected without rebuilding pkb.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/model/model_name.h"

namespace pkb::model {

/// Enumerators equal their names in the table.
enum class TemperatureRule { always, without_reasoning, never };
std::string_view temperature_rule_name(TemperatureRule rule);

/// How reasoning is asked for. effort: reasoning_effort (Chat) or reasoning.effort (Responses);
/// adaptive: Anthropic thinking {type: adaptive} with output_config.effort; budget: Anthropic
/// thinking {type: enabled, budget_tokens} or Gemini thinkingConfig.thinkingBudget; level: Gemini
/// thinkingConfig.thinkingLevel; none: the model takes no reasoning parameter.
enum class ReasoningStyle { none, effort, adaptive, budget, level };
std::string_view reasoning_style_name(ReasoningStyle style);

struct ModelRule {
  std::vector<Provider> providers;
  std::vector<std::string> models;        // glob patterns ('*', '?') over the name after PREFIX:
  std::optional<int> max_output_tokens;   // the model's cap: a larger request is lowered to it
  std::optional<int> default_max_tokens;  // without --max-tokens (else min(32000, cap))
  TemperatureRule temperature = TemperatureRule::always;
  ReasoningStyle reasoning = ReasoningStyle::effort;
  std::map<std::string, std::string> effort_values;  // low|medium|high -> the value sent
  std::map<std::string, int> budget_values;          // low|medium|high -> thinking tokens
  bool summary = false;  // ask for reasoning summaries (Responses) or thoughts (Gemini)
  std::string origin;    // "built-in models.json rules[3]" or "FILE rules[0]"
};

class ModelTable {
 public:
  /// The rules compiled into pkb from src/model/models.json.
  static ModelTable builtin();
  /// Parses a table; throws pkb::InputError naming `source` and the field.
  static ModelTable parse(const std::string& text, const std::string& source);
  /// `first`'s rules, then this table's.
  void put_first(const ModelTable& first);
  /// The first rule matching the spec's provider and model. Every provider has a catch-all rule
  /// in the built-in table; a table without one throws pkb::Error.
  const ModelRule& rule_for(const ModelSpec& spec) const;
  const std::vector<ModelRule>& rules() const { return rules_; }

 private:
  std::vector<ModelRule> rules_;
};

/// The table a run uses: the built-in rules after those of --model-table FILE (`flag_path`), else
/// of $PKB_MODEL_TABLE. Throws pkb::UsageError for a file that does not exist, pkb::InputError
/// for one that does not parse.
ModelTable model_table_for(const std::string& flag_path);

/// Shell-style match: '*' any run of characters, '?' one character, everything else itself.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace pkb::model
