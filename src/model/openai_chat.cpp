// OpenAI Chat Completions, also spoken by Together and OpenAI-compatible servers (vLLM, SGLang,
// Ollama, llama.cpp). Differences: the output cap is max_completion_tokens on OpenAI and max_tokens
// elsewhere (Ollama ignores the former); reasoning text arrives as message.reasoning or
// reasoning_content on local servers and Together.
#include <nlohmann/json.hpp>

#include "src/model/provider_api.h"
#include "src/model/sse.h"

namespace pkb::model {
namespace {

StopReason stop_of(const std::string& finish, bool refused) {
  if (refused) return StopReason::refused;
  if (finish == "stop" || finish == "eos") return StopReason::complete;
  if (finish == "length") return StopReason::truncated;
  if (finish == "content_filter") return StopReason::filtered;
  return StopReason::other;
}

Usage usage_of(const nlohmann::json& usage) {
  Usage out;
  if (!usage.is_object()) return out;
  out.input = count_at(usage, "prompt_tokens");
  out.output = count_at(usage, "completion_tokens");
  if (usage.contains("prompt_tokens_details"))
    out.cached = count_at(usage["prompt_tokens_details"], "cached_tokens");
  if (usage.contains("completion_tokens_details"))
    out.reasoning = count_at(usage["completion_tokens_details"], "reasoning_tokens");
  return out;
}

std::string reasoning_of(const nlohmann::json& message) {
  const std::string reasoning = string_at(message, "reasoning");
  return reasoning.empty() ? string_at(message, "reasoning_content") : reasoning;
}

class OpenAiChat : public ProviderApi {
 public:
  explicit OpenAiChat(ModelSpec spec) : spec_(std::move(spec)) {}

  std::string url(bool) const override { return spec_.base_url + "/chat/completions"; }

  std::vector<std::string> headers(const std::string& key) const override {
    std::vector<std::string> out = {"Content-Type: application/json"};
    if (!key.empty()) out.push_back("Authorization: Bearer " + key);
    return out;
  }

  nlohmann::json body(const ModelRequest& request, const WireSettings& wire,
                      bool stream) const override {
    nlohmann::json messages = nlohmann::json::array();
    if (!request.system.empty())
      messages.push_back({{"role", "system"}, {"content", request.system}});
    for (const ChatTurn& turn : request.history) {
      messages.push_back({{"role", "user"}, {"content", turn.user}});
      messages.push_back({{"role", "assistant"}, {"content", turn.assistant}});
    }
    messages.push_back({{"role", "user"}, {"content", request.user}});
    nlohmann::json body = {{"model", spec_.model}, {"messages", messages}};
    body[spec_.provider == Provider::openai ? "max_completion_tokens" : "max_tokens"] =
        wire.max_tokens;
    if (wire.temperature) body["temperature"] = *wire.temperature;
    if (wire.reasoning == ReasoningStyle::effort && !wire.effort.empty())
      body["reasoning_effort"] = wire.effort;
    if (stream) {
      body["stream"] = true;
      body["stream_options"] = {{"include_usage", true}};
    }
    return body;
  }

  ParsedReply parse_body(const std::string& text) const override {
    const auto doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
      return malformed_reply("the body is not a JSON object");
    if (doc.contains("error") && !doc["error"].is_null())
      return error_event_reply(doc["error"], text);
    if (!doc.contains("choices") || !doc["choices"].is_array() || doc["choices"].empty())
      return malformed_reply("no choices");
    const auto& choice = doc["choices"][0];
    const auto& message = choice.contains("message") ? choice["message"] : nlohmann::json::object();
    ModelResult result;
    result.text = string_at(message, "content");
    result.reasoning_text = reasoning_of(message);
    result.raw_stop = string_at(choice, "finish_reason");
    result.stop =
        stop_of(result.raw_stop, !string_at(message, "refusal").empty() && result.text.empty());
    result.raw_usage = doc.contains("usage") ? doc["usage"] : nlohmann::json();
    result.usage = usage_of(result.raw_usage);
    result.model = string_at(doc, "model");
    result.response_id = string_at(doc, "id");
    return {result, std::nullopt, false};
  }

  ParsedReply parse_stream(const std::string& transcript) const override {
    ModelResult result;
    std::string refusal;
    bool done = false;
    for (const auto& event : parse_sse(transcript)) {
      if (event.data == "[DONE]") {
        done = true;
        break;
      }
      const auto chunk = nlohmann::json::parse(event.data, nullptr, false);
      if (chunk.is_discarded() || !chunk.is_object())
        return malformed_reply("an event is not a JSON object");
      if (chunk.contains("error") && !chunk["error"].is_null())
        return error_event_reply(chunk["error"], event.data);
      if (result.model.empty()) result.model = string_at(chunk, "model");
      if (result.response_id.empty()) result.response_id = string_at(chunk, "id");
      if (chunk.contains("usage") && chunk["usage"].is_object()) {
        result.raw_usage = chunk["usage"];
        result.usage = usage_of(chunk["usage"]);
      }
      if (!chunk.contains("choices") || !chunk["choices"].is_array()) continue;
      for (const auto& choice : chunk["choices"]) {
        if (choice.contains("delta")) {
          const auto& delta = choice["delta"];
          result.text += string_at(delta, "content");
          result.reasoning_text += reasoning_of(delta);
          refusal += string_at(delta, "refusal");
        }
        if (choice.contains("finish_reason") && choice["finish_reason"].is_string())
          result.raw_stop = choice["finish_reason"].get<std::string>();
      }
    }
    if (!done) return cut_stream_reply("data: [DONE]");
    result.stop = stop_of(result.raw_stop, !refusal.empty() && result.text.empty());
    return {result, std::nullopt, false};
  }

 private:
  ModelSpec spec_;
};

}  // namespace

std::unique_ptr<ProviderApi> make_openai_chat(const ModelSpec& spec) {
  return std::make_unique<OpenAiChat>(spec);
}

}  // namespace pkb::model
