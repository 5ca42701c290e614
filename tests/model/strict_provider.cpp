// The strict provider's rules, one family per entry of kModels. Error texts are the providers' own
// wording where their docs or issue threads quote it, so pkb is tested on what it will read.
#include "tests/model/strict_provider.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace pkb::test {
namespace {

using nlohmann::json;

enum class Family {
  openai_plain,        // gpt-4o: no reasoning parameter at all
  openai_reasoning,    // o-series, gpt-5: reasoning_effort, the default temperature only
  anthropic_plain,     // Claude 3.5: no extended thinking
  anthropic_budget,    // Claude 3.7 to 4.5: thinking {type: enabled, budget_tokens}
  anthropic_adaptive,  // Claude 4.6: thinking {type: adaptive} + output_config.effort
  gemini_plain,        // Gemini 2.0: no thinking configuration
  gemini_budget,       // Gemini 2.5: thinkingBudget only
  gemini_level,        // Gemini 3: thinkingLevel (or the legacy budget), never both
  vllm,                // an open model on vLLM: the context length bounds prompt + max_tokens
};

struct Model {
  std::string provider;  // for strict_model_names
  std::string name;
  Family family;
  int cap;  // output cap (vllm: the context length)
  int budget_min = 0, budget_max = 0;
  std::vector<std::string> levels = {};  // effort or thinking-level values taken
};

constexpr int kPromptTokens = 100;  // what the fake says every prompt costs

const std::vector<Model>& models() {
  static const std::vector<Model> list = {
      {"openai", "gpt-4o", Family::openai_plain, 16384},
      {"openai", "o3", Family::openai_reasoning, 100000, 0, 0, {"low", "medium", "high"}},
      {"openai-responses",
       "gpt-5",
       Family::openai_reasoning,
       128000,
       0,
       0,
       {"minimal", "low", "medium", "high"}},
      {"anthropic", "claude-3-5-haiku-20241022", Family::anthropic_plain, 8192},
      {"anthropic", "claude-3-7-sonnet-20250219", Family::anthropic_budget, 64000, 1024},
      {"anthropic", "claude-opus-4-1", Family::anthropic_budget, 32000, 1024},
      {"anthropic",
       "claude-opus-4-6",
       Family::anthropic_adaptive,
       128000,
       0,
       0,
       {"low", "medium", "high", "max"}},
      {"gemini", "gemini-2.0-flash", Family::gemini_plain, 8192},
      {"gemini", "gemini-2.5-pro", Family::gemini_budget, 65536, 128, 32768},
      {"gemini", "gemini-2.5-flash", Family::gemini_budget, 65536, 0, 24576},
      {"gemini", "gemini-3-pro-preview", Family::gemini_level, 65536, 0, 65536, {"LOW", "HIGH"}},
      {"gemini",
       "gemini-3-flash-preview",
       Family::gemini_level,
       65536,
       0,
       65536,
       {"MINIMAL", "LOW", "MEDIUM", "HIGH"}},
      {"openai-compat", "qwen-8k", Family::vllm, 8192},
      // Unknown to pkb's built-in table: only the 400s can teach the client what they take.
      {"openai", "gpt-9-mini", Family::openai_reasoning, 16384, 0, 0, {"low", "medium", "high"}},
      {"anthropic", "claude-legacy-9", Family::anthropic_budget, 8192, 1024},
  };
  return list;
}

FakeReply with_status(int status, const json& body) {
  FakeReply reply;
  reply.status = status;
  reply.body = body.dump();
  return reply;
}

FakeReply openai_error(const std::string& message, const std::string& param,
                       const std::string& code) {
  return with_status(400, {{"error",
                            {{"message", message},
                             {"type", "invalid_request_error"},
                             {"param", param},
                             {"code", code}}}});
}

FakeReply anthropic_error(const std::string& message) {
  return with_status(400, {{"type", "error"},
                           {"error", {{"type", "invalid_request_error"}, {"message", message}}},
                           {"request_id", "req_strict"}});
}

FakeReply gemini_error(const std::string& message) {
  return with_status(
      400, {{"error", {{"code", 400}, {"message", message}, {"status", "INVALID_ARGUMENT"}}}});
}

bool has(const std::vector<std::string>& values, const std::string& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

std::string number(const json& value) { return value.dump(); }

FakeReply check_openai(const Model& model, const json& body, bool responses) {
  const char* cap_field = responses ? "max_output_tokens" : "max_completion_tokens";
  if (!responses && body.contains("max_tokens") && model.family == Family::openai_reasoning)
    return openai_error(
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use "
        "'max_completion_tokens' instead.",
        "max_tokens", "unsupported_parameter");
  const int max = body.value(cap_field, body.value("max_tokens", 0));
  if (max > model.cap)
    return openai_error("max_tokens is too large: " + std::to_string(max) +
                            ". This model supports at most " + std::to_string(model.cap) +
                            " completion tokens, whereas you provided " + std::to_string(max) + ".",
                        "max_tokens", "invalid_value");
  const json reasoning = responses ? body.value("reasoning", json::object()) : json::object();
  const std::string effort =
      responses ? reasoning.value("effort", "") : body.value("reasoning_effort", "");
  const char* effort_param = responses ? "reasoning.effort" : "reasoning_effort";
  if (model.family == Family::openai_plain && (!effort.empty() || !reasoning.empty()))
    return openai_error(std::string("Unsupported parameter: '") + effort_param +
                            "' is not supported with this model.",
                        effort_param, "unsupported_parameter");
  if (model.family != Family::openai_reasoning) return {};
  if (body.contains("temperature") && body["temperature"] != 1)
    return openai_error("Unsupported value: 'temperature' does not support " +
                            number(body["temperature"]) +
                            " with this model. Only the default (1) value is supported.",
                        "temperature", "unsupported_value");
  if (!effort.empty() && !has(model.levels, effort))
    return openai_error(std::string("Unsupported value: '") + effort_param +
                            "' does not support '" + effort + "' with this model.",
                        effort_param, "unsupported_value");
  if (reasoning.contains("summary"))
    return openai_error(
        "Your organization must be verified to generate reasoning summaries. Please go to: "
        "https://platform.openai.com/settings/organization/general and click on Verify "
        "Organization.",
        "reasoning.summary", "unsupported_value");
  return {};
}

FakeReply check_anthropic(const Model& model, const json& body) {
  const int max = body.value("max_tokens", 0);
  if (max > model.cap)
    return anthropic_error(
        "max_tokens: " + std::to_string(max) + " > " + std::to_string(model.cap) +
        ", which is the maximum allowed number of output tokens for " + model.name);
  const json thinking = body.value("thinking", json());
  const std::string type = thinking.is_object() ? thinking.value("type", "") : "";
  const bool on = type == "enabled" || type == "adaptive";
  if (on && body.contains("temperature") && body["temperature"] != 1)
    return anthropic_error(
        "`temperature` may only be set to 1 when thinking is enabled. Please consult our "
        "documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking");
  if (body.contains("output_config") && model.family != Family::anthropic_adaptive)
    return anthropic_error("output_config: Extra inputs are not permitted");
  if (model.family == Family::anthropic_plain && thinking.is_object())
    return anthropic_error("thinking: '" + model.name + "' does not support extended thinking");
  if (model.family == Family::anthropic_budget && type == "adaptive")
    return anthropic_error(
        "thinking.type: Input tag 'adaptive' found using 'type' does not match any of the "
        "expected tags: 'disabled', 'enabled'");
  if (model.family == Family::anthropic_budget && type == "enabled") {
    const int budget = thinking.value("budget_tokens", 0);
    if (budget < model.budget_min)
      return anthropic_error(
          "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
    if (budget >= max)
      return anthropic_error("`max_tokens` must be greater than `thinking.budget_tokens`");
  }
  if (model.family == Family::anthropic_adaptive && type == "enabled")
    return anthropic_error(
        "thinking.type.enabled is not supported for this model. Use thinking.type.adaptive and "
        "output_config.effort to control thinking behavior.");
  if (body.contains("output_config")) {
    const std::string effort = body["output_config"].value("effort", "");
    if (!has(model.levels, effort))
      return anthropic_error(
          "output_config.effort: Input should be 'low', 'medium', 'high' or "
          "'max'");
  }
  return {};
}

FakeReply check_gemini(const Model& model, const json& body) {
  const json config = body.value("generationConfig", json::object());
  const int max = config.value("maxOutputTokens", 0);
  if (max > model.cap)
    return gemini_error("Unable to submit request because it has a maxOutputTokens value of " +
                        std::to_string(max) + " but the supported range is from 1 (inclusive) to " +
                        std::to_string(model.cap + 1) +
                        " (exclusive). Update the value and try again.");
  if (!config.contains("thinkingConfig")) return {};
  const json thinking = config["thinkingConfig"];
  if (model.family == Family::gemini_plain)
    return gemini_error("Thinking is not supported for this model.");
  const bool level = thinking.contains("thinkingLevel");
  const bool budget = thinking.contains("thinkingBudget");
  if (level && budget)
    return gemini_error("You can only set only one of thinking budget and thinking level.");
  if (level && model.family == Family::gemini_budget)
    return gemini_error("Thinking level is not supported for this model.");
  if (level && !has(model.levels, thinking["thinkingLevel"].get<std::string>()))
    return gemini_error("Thinking level " + thinking["thinkingLevel"].get<std::string>() +
                        " is not supported for this model. Please retry with other thinking "
                        "level.");
  if (budget) {
    const int tokens = thinking["thinkingBudget"].get<int>();
    if (tokens < model.budget_min || tokens > model.budget_max)
      return gemini_error("The thinking budget " + std::to_string(tokens) +
                          " is invalid. Please choose a value between " +
                          std::to_string(model.budget_min) + " and " +
                          std::to_string(model.budget_max) + ".");
  }
  return {};
}

FakeReply check_vllm(const Model& model, const json& body) {
  const int max = body.value("max_tokens", 0);
  if (max + kPromptTokens <= model.cap) return {};
  return with_status(
      400,
      {{"object", "error"},
       {"message", "This model's maximum context length is " + std::to_string(model.cap) +
                       " tokens. However, you requested " + std::to_string(max + kPromptTokens) +
                       " tokens (" + std::to_string(kPromptTokens) + " in the messages, " +
                       std::to_string(max) +
                       " in the completion). Please reduce the length of the messages or "
                       "completion."},
       {"type", "BadRequestError"},
       {"param", nullptr},
       {"code", 400}});
}

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::vector<std::string> strict_model_names() {
  std::vector<std::string> names;
  for (const Model& model : models()) names.push_back(model.provider + ":" + model.name);
  return names;
}

FakeReply strict_reply(const SeenRequest& request, const StrictOptions& options) {
  const json body = json::parse(request.body, nullptr, false);
  if (body.is_discarded()) return openai_error("We could not parse the JSON body", "", "");
  const std::string path = request.path.substr(0, request.path.find('?'));
  std::string name = body.value("model", "");
  const std::size_t models_at = path.find("/models/");
  const bool gemini = models_at != std::string::npos;
  if (gemini) name = path.substr(models_at + 8, path.find(':', models_at) - models_at - 8);
  const auto found = std::find_if(models().begin(), models().end(),
                                  [&name](const Model& model) { return model.name == name; });
  if (found == models().end())
    return with_status(404, {{"error",
                              {{"message", "The model `" + name + "` does not exist"},
                               {"type", "invalid_request_error"},
                               {"code", "model_not_found"}}}});
  const Model& model = *found;
  const bool stream =
      body.value("stream", false) || path.find("streamGenerate") != std::string::npos;
  FakeReply rejected;
  bool thinks = false, shows_thoughts = false;
  if (gemini) {
    rejected = check_gemini(model, body);
    const json thinking =
        body.value("generationConfig", json::object()).value("thinkingConfig", json::object());
    thinks = model.family != Family::gemini_plain;  // Gemini 2.5 and 3 think unless told not to
    shows_thoughts = thinking.value("includeThoughts", false);
  } else if (ends_with(path, "/messages")) {
    rejected = check_anthropic(model, body);
    thinks = body.contains("thinking");
    shows_thoughts = thinks;  // thinking blocks stream as they are written
  } else if (model.family == Family::vllm) {
    rejected = check_vllm(model, body);
  } else {
    const bool responses = ends_with(path, "/responses");
    rejected = check_openai(model, body, responses);
    thinks = model.family == Family::openai_reasoning;
    shows_thoughts = responses && body.value("reasoning", json::object()).contains("summary");
  }
  if (rejected.status != 200) return rejected;
  const std::string thought = shows_thoughts ? "I weigh two layouts." : "";
  FakeReply reply;
  if (gemini)
    reply = stream ? fake::gemini_stream(options.answer, "STOP", thought)
                   : fake::gemini(options.answer, "STOP", thought);
  else if (ends_with(path, "/messages"))
    reply = stream ? fake::anthropic_stream(options.answer, "end_turn", thought)
                   : fake::anthropic(options.answer, "end_turn", thought);
  else if (ends_with(path, "/responses"))
    reply = stream ? fake::responses_stream(options.answer) : fake::responses(options.answer);
  else
    reply = stream ? fake::chat_stream(options.answer) : fake::chat(options.answer);
  if (stream && thinks && !shows_thoughts) reply.latency_ms = options.silent_ms;
  return reply;
}

void make_strict(FakeProvider& server, StrictOptions options) {
  server.set_default(
      [options](const SeenRequest& request) { return strict_reply(request, options); });
}

}  // namespace pkb::test
