// Resolving a request's settings. Thinking budgets count toward the output cap on both Anthropic
// and Gemini, so a budget is lowered to leave room for the answer; Anthropic refuses budgets under
// 1024 tokens, so such a request goes without thinking rather than failing.
#include "src/model/request_settings.h"

#include <algorithm>

namespace pkb::model {
namespace {

constexpr int kDefaultMaxTokens = 32000;
// A kernel answer (code, plan, a few words) runs to a few thousand tokens; a thinking budget that
// would leave less than this for it is lowered.
constexpr int kMinAnswerTokens = 4096;
constexpr int kAnthropicMinBudget = 1024;  // budget_tokens must be >= 1024 (Messages API)

bool adjusted(const std::vector<RequestAdjustment>& adjustments, Param param) {
  return std::any_of(adjustments.begin(), adjustments.end(),
                     [param](const RequestAdjustment& item) { return item.param == param; });
}

void note(std::vector<std::string>* notes, const std::string& text) {
  if (notes) notes->push_back(text);
}

std::string number_text(double value) { return nlohmann::json(value).dump(); }

}  // namespace

std::string_view param_name(Param param) {
  switch (param) {
    case Param::max_tokens: return "max_tokens";
    case Param::temperature: return "temperature";
    case Param::reasoning: return "reasoning";
    case Param::effort: return "effort";
    case Param::summary: return "summary";
  }
  return "unknown";
}

nlohmann::json to_json(const RequestAdjustment& adjustment) {
  const bool lowered = adjustment.limit.has_value();
  return {{"parameter", std::string(param_name(adjustment.param))},
          {"action", lowered ? "lowered" : "dropped"},
          {"sent", adjustment.sent},
          {"now", lowered ? nlohmann::json(*adjustment.limit) : nlohmann::json()},
          {"reason", adjustment.reason}};
}

nlohmann::json to_json(const WireSettings& settings) {
  nlohmann::json reasoning;  // null: no reasoning parameter
  if (settings.reasoning != ReasoningStyle::none) {
    reasoning = {{"style", std::string(reasoning_style_name(settings.reasoning))}};
    if (settings.reasoning == ReasoningStyle::budget)
      reasoning["budget_tokens"] = settings.budget_tokens;
    else
      reasoning["value"] =
          settings.effort.empty() ? nlohmann::json() : nlohmann::json(settings.effort);
  }
  return {{"max_tokens", settings.max_tokens},
          {"temperature",
           settings.temperature ? nlohmann::json(*settings.temperature) : nlohmann::json()},
          {"reasoning", reasoning},
          {"summary", settings.summary}};
}

int default_max_tokens(const ModelRule& rule) {
  if (rule.default_max_tokens) return *rule.default_max_tokens;
  return rule.max_output_tokens ? std::min(kDefaultMaxTokens, *rule.max_output_tokens)
                                : kDefaultMaxTokens;
}

WireSettings resolve_wire(const ModelRule& rule, Provider provider, const ModelRequest& request,
                          const std::vector<RequestAdjustment>& adjustments,
                          std::vector<std::string>* notes) {
  WireSettings wire;
  wire.max_tokens = request.max_tokens;
  if (rule.max_output_tokens && wire.max_tokens > *rule.max_output_tokens) {
    note(notes, "max tokens " + std::to_string(wire.max_tokens) + " lowered to " +
                    std::to_string(*rule.max_output_tokens) + ", the model's cap");
    wire.max_tokens = *rule.max_output_tokens;
  }
  for (const RequestAdjustment& adjustment : adjustments)
    if (adjustment.param == Param::max_tokens && adjustment.limit)
      wire.max_tokens = std::min(wire.max_tokens, *adjustment.limit);

  const bool reasoning_dropped = adjusted(adjustments, Param::reasoning);
  const std::string& level = request.reasoning;
  if (!level.empty() && rule.reasoning == ReasoningStyle::none)
    note(notes, "reasoning " + level + " not sent: the model takes no reasoning parameter");
  if (!level.empty() && rule.reasoning != ReasoningStyle::none && !reasoning_dropped) {
    wire.reasoning = rule.reasoning;
    if (rule.reasoning == ReasoningStyle::budget) {
      const auto found = rule.budget_values.find(level);
      const int asked = found == rule.budget_values.end() ? 0 : found->second;
      const int budget = std::min(asked, wire.max_tokens - kMinAnswerTokens);
      const int minimum = provider == Provider::anthropic ? kAnthropicMinBudget : 0;  // 0: off
      if (budget < minimum) {
        note(notes, "reasoning " + level + " not sent: max tokens " +
                        std::to_string(wire.max_tokens) + " leave no room for a thinking budget");
        wire.reasoning = ReasoningStyle::none;
      } else {
        if (budget < asked)
          note(notes, "thinking budget " + std::to_string(asked) + " lowered to " +
                          std::to_string(budget) + " to leave room for the answer");
        wire.budget_tokens = budget;
      }
    } else if (!(rule.reasoning == ReasoningStyle::adaptive &&
                 adjusted(adjustments, Param::effort))) {
      const auto found = rule.effort_values.find(level);
      wire.effort = found == rule.effort_values.end() ? level : found->second;
    }
  }
  wire.summary = rule.summary && rule.reasoning != ReasoningStyle::none && !reasoning_dropped &&
                 !adjusted(adjustments, Param::summary);

  if (request.temperature) {
    const bool thinking = wire.reasoning != ReasoningStyle::none;
    if (rule.temperature == TemperatureRule::never)
      note(notes, "temperature " + number_text(*request.temperature) +
                      " not sent: the model takes only its default");
    else if (rule.temperature == TemperatureRule::without_reasoning && thinking)
      note(notes, "temperature " + number_text(*request.temperature) +
                      " not sent: the model takes none beside reasoning");
    else if (!adjusted(adjustments, Param::temperature))
      wire.temperature = request.temperature;
  }
  return wire;
}

}  // namespace pkb::model
