// Reading and matching the model table. Unknown fields are errors (with a suggestion), so a typo
// in a user's table fails at once instead of silently leaving a model on the provider's defaults.
#include "src/model/model_table.h"

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "src/common/did_you_mean.h"
#include "src/common/error.h"
#include "src/common/file_bytes.h"

namespace pkb::model {

extern const char* const kBuiltinModelTable;  // model_table_data.cpp, made from models.json

namespace {

constexpr int kTableSchema = 1;
const char* const kLevels[] = {"low", "medium", "high"};  // --reasoning's values
const std::vector<std::string> kRuleFields = {
    "provider",           "models",      "max_output_tokens",
    "default_max_tokens", "temperature", "reasoning",
    "reasoning_values",   "summary",     "note"};
constexpr Provider kTableProviders[] = {Provider::openai,    Provider::openai_responses,
                                        Provider::anthropic, Provider::gemini,
                                        Provider::together,  Provider::openai_compat};

// Which reasoning styles each wire format can express.
std::vector<ReasoningStyle> styles_for(Provider provider) {
  switch (provider) {
    case Provider::anthropic:
      return {ReasoningStyle::none, ReasoningStyle::adaptive, ReasoningStyle::budget};
    case Provider::gemini:
      return {ReasoningStyle::none, ReasoningStyle::budget, ReasoningStyle::level};
    default: return {ReasoningStyle::none, ReasoningStyle::effort};
  }
}

struct RuleReader {
  const std::string& source;
  std::string where;  // "rules[3]"

  [[noreturn]] void fail(const std::string& field, const std::string& expected,
                         const nlohmann::json& got) const {
    fail_text(field, expected, got.dump());
  }
  [[noreturn]] void fail_text(const std::string& field, const std::string& expected,
                              const std::string& got) const {
    throw InputError(source, where + (field.empty() ? "" : "." + field), expected, got);
  }

  std::optional<int> tokens(const nlohmann::json& rule, const char* field) const {
    if (!rule.contains(field) || rule[field].is_null()) return std::nullopt;
    if (!rule[field].is_number_integer() || rule[field].get<long long>() < 1 ||
        rule[field].get<long long>() > 10000000)
      fail(field, "a token count from 1 to 10000000", rule[field]);
    return rule[field].get<int>();
  }

  std::vector<Provider> providers(const nlohmann::json& value) const {
    const nlohmann::json list = value.is_string() ? nlohmann::json::array({value}) : value;
    std::string names;
    for (Provider provider : kTableProviders)
      names += (names.empty() ? "" : ", ") + std::string(provider_name(provider));
    if (!list.is_array() || list.empty()) fail("provider", "a provider or a list of them", value);
    std::vector<Provider> out;
    for (const auto& item : list) {
      bool found = false;
      for (Provider provider : kTableProviders)
        if (item.is_string() && item.get<std::string>() == provider_name(provider)) {
          out.push_back(provider);
          found = true;
        }
      if (!found) fail("provider", "one of " + names, item);
    }
    return out;
  }

  template <typename Enum, std::size_t N>
  Enum named(const nlohmann::json& rule, const char* field, const Enum (&values)[N],
             std::string_view (*name)(Enum), Enum fallback) const {
    if (!rule.contains(field)) return fallback;
    std::string names;
    for (Enum value : values) {
      if (rule[field].is_string() && rule[field].get<std::string>() == name(value)) return value;
      names += (names.empty() ? "" : ", ") + std::string(name(value));
    }
    fail(field, "one of " + names, rule[field]);
  }

  void values(const nlohmann::json& rule, ModelRule& out) const {
    const bool budget = out.reasoning == ReasoningStyle::budget;
    const bool valued = out.reasoning != ReasoningStyle::none;
    if (!rule.contains("reasoning_values")) {
      if (budget) fail("reasoning_values", "thinking tokens for low, medium and high", nullptr);
      for (const char* level : kLevels)  // the provider's names are pkb's, level in capitals
        out.effort_values[level] = out.reasoning == ReasoningStyle::level
                                       ? (std::string(level) == "low"      ? "LOW"
                                          : std::string(level) == "medium" ? "MEDIUM"
                                                                           : "HIGH")
                                       : level;
      return;
    }
    const auto& map = rule["reasoning_values"];
    if (!valued) fail("reasoning_values", "no values with reasoning \"none\"", map);
    if (!map.is_object() || map.size() != 3)
      fail("reasoning_values", "an object with low, medium and high", map);
    for (const char* level : kLevels) {
      const std::string field = std::string("reasoning_values.") + level;
      if (!map.contains(level)) fail(field, budget ? "thinking tokens" : "a string", nullptr);
      const auto& value = map[level];
      if (budget && (!value.is_number_integer() || value.get<long long>() < 0 ||
                     value.get<long long>() > 10000000))
        fail(field, "thinking tokens from 0 to 10000000", value);
      if (!budget && (!value.is_string() || value.get<std::string>().empty()))
        fail(field, "the value the provider takes, a string", value);
      if (budget)
        out.budget_values[level] = value.get<int>();
      else
        out.effort_values[level] = value.get<std::string>();
    }
  }

  ModelRule read(const nlohmann::json& rule) const {
    if (!rule.is_object()) fail("", "an object", rule);
    for (const auto& item : rule.items()) {
      if (std::find(kRuleFields.begin(), kRuleFields.end(), item.key()) != kRuleFields.end())
        continue;
      const auto near = closest_match(item.key(), kRuleFields);
      fail_text(item.key(),
                near ? "a known field (did you mean '" + *near + "'?)" : "a known field",
                "an unknown one");
    }
    ModelRule out;
    if (!rule.contains("provider")) fail("provider", "a provider or a list of them", nullptr);
    out.providers = providers(rule["provider"]);
    const auto& models = rule.contains("models") ? rule["models"] : nlohmann::json();
    if (!models.is_array() || models.empty())
      fail("models", "a list of model-name patterns", models);
    for (const auto& pattern : models) {
      if (!pattern.is_string() || pattern.get<std::string>().empty())
        fail("models", "non-empty pattern strings", pattern);
      out.models.push_back(pattern.get<std::string>());
    }
    out.max_output_tokens = tokens(rule, "max_output_tokens");
    out.default_max_tokens = tokens(rule, "default_max_tokens");
    if (out.max_output_tokens && out.default_max_tokens &&
        *out.default_max_tokens > *out.max_output_tokens)
      fail("default_max_tokens", "at most max_output_tokens", rule["default_max_tokens"]);
    constexpr TemperatureRule temperatures[] = {
        TemperatureRule::always, TemperatureRule::without_reasoning, TemperatureRule::never};
    out.temperature =
        named(rule, "temperature", temperatures, temperature_rule_name, TemperatureRule::always);
    constexpr ReasoningStyle styles[] = {ReasoningStyle::none, ReasoningStyle::effort,
                                         ReasoningStyle::adaptive, ReasoningStyle::budget,
                                         ReasoningStyle::level};
    out.reasoning = named(rule, "reasoning", styles, reasoning_style_name, ReasoningStyle::effort);
    for (Provider provider : out.providers) {
      const auto allowed = styles_for(provider);
      if (std::find(allowed.begin(), allowed.end(), out.reasoning) != allowed.end()) continue;
      std::string names;
      for (ReasoningStyle style : allowed)
        names += (names.empty() ? "" : ", ") + std::string(reasoning_style_name(style));
      fail("reasoning", "one of " + names + " for " + std::string(provider_name(provider)),
           rule["reasoning"]);
    }
    values(rule, out);
    if (rule.contains("summary")) {
      if (!rule["summary"].is_boolean()) fail("summary", "true or false", rule["summary"]);
      out.summary = rule["summary"].get<bool>();
    }
    return out;
  }
};

}  // namespace

std::string_view temperature_rule_name(TemperatureRule rule) {
  switch (rule) {
    case TemperatureRule::always: return "always";
    case TemperatureRule::without_reasoning: return "without_reasoning";
    case TemperatureRule::never: return "never";
  }
  return "unknown";
}

std::string_view reasoning_style_name(ReasoningStyle style) {
  switch (style) {
    case ReasoningStyle::none: return "none";
    case ReasoningStyle::effort: return "effort";
    case ReasoningStyle::adaptive: return "adaptive";
    case ReasoningStyle::budget: return "budget";
    case ReasoningStyle::level: return "level";
  }
  return "unknown";
}

bool glob_match(std::string_view pattern, std::string_view text) {
  // Iterative wildcard match: on a mismatch, let the last '*' swallow one more character.
  std::size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

ModelTable ModelTable::parse(const std::string& text, const std::string& source) {
  const auto doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object())
    throw InputError(source, "(file)", "a JSON object with \"rules\"", "text that is not JSON");
  for (const auto& item : doc.items())
    if (item.key() != "schema_version" && item.key() != "about" && item.key() != "rules")
      throw InputError(source, item.key(), "schema_version, about or rules", "unknown field");
  if (doc.contains("schema_version") && doc["schema_version"] != kTableSchema)
    throw InputError(source, "schema_version", std::to_string(kTableSchema),
                     doc["schema_version"].dump());
  if (!doc.contains("rules") || !doc["rules"].is_array())
    throw InputError(source, "rules", "a list of rules",
                     doc.contains("rules") ? doc["rules"].dump() : "none");
  ModelTable table;
  for (std::size_t index = 0; index < doc["rules"].size(); ++index) {
    const std::string where = "rules[" + std::to_string(index) + "]";
    ModelRule rule = RuleReader{source, where}.read(doc["rules"][index]);
    rule.origin = source + " " + where;
    table.rules_.push_back(std::move(rule));
  }
  return table;
}

ModelTable ModelTable::builtin() {
  static const ModelTable table = parse(kBuiltinModelTable, "built-in models.json");
  return table;
}

void ModelTable::put_first(const ModelTable& first) {
  rules_.insert(rules_.begin(), first.rules_.begin(), first.rules_.end());
}

const ModelRule& ModelTable::rule_for(const ModelSpec& spec) const {
  for (const ModelRule& rule : rules_) {
    if (std::find(rule.providers.begin(), rule.providers.end(), spec.provider) ==
        rule.providers.end())
      continue;
    for (const std::string& pattern : rule.models)
      if (glob_match(pattern, spec.model)) return rule;
  }
  throw Error("model table: no rule for " + spec.text);
}

ModelTable model_table_for(const std::string& flag_path) {
  std::string flag = "--model-table", path = flag_path;
  if (path.empty()) {
    const char* env = std::getenv("PKB_MODEL_TABLE");
    if (env == nullptr || *env == '\0') return ModelTable::builtin();
    flag = "PKB_MODEL_TABLE";
    path = env;
  }
  const auto text = read_file(path);
  if (!text || std::filesystem::is_directory(path))
    throw UsageError(flag + " " + path + ": no such file");
  ModelTable table = ModelTable::builtin();
  table.put_first(ModelTable::parse(*text, path));
  return table;
}

}  // namespace pkb::model
