// What one request sends: the user's asks (ModelRequest: max tokens, temperature, reasoning
// level) shaped by the model's rule (model_table.h) and by what earlier 400s taught the client
// (param_rejection.h). Every provider's body is built from these settings, so the rules live here
// once rather than in four wire formats.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/model/model_result.h"
#include "src/model/model_table.h"

namespace pkb::model {

/// The request parameters a 400 can make pkb drop or lower. `reasoning` is the whole reasoning
/// or thinking parameter; `effort` only Anthropic's output_config.effort beside adaptive thinking.
enum class Param { max_tokens, temperature, reasoning, effort, summary };
std::string_view param_name(Param param);  // "max_tokens", "temperature", ...

/// One parameter changed after a 400 that named it; kept by the client for every later request.
struct RequestAdjustment {
  Param param = Param::temperature;
  std::optional<int> limit;  // max_tokens: the largest value the provider said it takes
  nlohmann::json sent;       // the value in the rejected request (for the record only)
  std::string reason;        // the provider's error, one line
};
nlohmann::json to_json(const RequestAdjustment& adjustment);

struct WireSettings {
  int max_tokens = 0;
  std::optional<double> temperature;
  ReasoningStyle reasoning = ReasoningStyle::none;  // none: no reasoning parameter at all
  std::string effort;     // effort, adaptive, level: the value sent ("" for adaptive: none)
  int budget_tokens = 0;  // budget: thinking tokens
  bool summary = false;   // Responses reasoning.summary, Gemini includeThoughts
};
nlohmann::json to_json(const WireSettings& settings);

/// Without --max-tokens: the rule's default, else 32000 lowered to the rule's cap.
int default_max_tokens(const ModelRule& rule);

/// The settings of one request. `notes`, when given, gets one line for each ask the rule changes
/// (a temperature not sent, a cap lowered), for the warnings at the start of a run.
WireSettings resolve_wire(const ModelRule& rule, Provider provider, const ModelRequest& request,
                          const std::vector<RequestAdjustment>& adjustments,
                          std::vector<std::string>* notes = nullptr);

}  // namespace pkb::model
