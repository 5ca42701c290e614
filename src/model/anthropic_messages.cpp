// Anthropic Messages: text blocks are the answer, thinking blocks the reasoning. Usage:
// input_tokens excludes cache reads and writes, so the total input is the sum of the three. A
// stream is message_start, content blocks, message_delta (stop reason, output tokens),
// message_stop; an `error` event can come at any time, even after a 200.
#include <map>
#include <nlohmann/json.hpp>

#include "src/model/provider_api.h"
#include "src/model/sse.h"

namespace pkb::model {
namespace {

constexpr const char* kApiVersion = "anthropic-version: 2023-06-01";

StopReason stop_of(const std::string& raw) {
  if (raw == "end_turn" || raw == "stop_sequence") return StopReason::complete;
  if (raw == "max_tokens" || raw == "model_context_window_exceeded") return StopReason::truncated;
  if (raw == "refusal") return StopReason::refused;
  return StopReason::other;
}

Usage usage_of(const nlohmann::json& usage) {
  Usage out;
  if (!usage.is_object()) return out;
  const auto uncached = count_at(usage, "input_tokens");
  const auto read = count_at(usage, "cache_read_input_tokens");
  const auto written = count_at(usage, "cache_creation_input_tokens");
  if (uncached) out.input = *uncached + read.value_or(0) + written.value_or(0);
  out.cached = read;
  out.output = count_at(usage, "output_tokens");
  if (usage.contains("output_tokens_details"))
    out.reasoning = count_at(usage["output_tokens_details"], "thinking_tokens");
  return out;
}

// Stream events carry usage in pieces (message_start: input; message_delta: cumulative output and
// its thinking part); a field sent as null in a later event must not erase an earlier count.
void merge_usage(nlohmann::json& usage, const nlohmann::json& update) {
  for (const auto& item : update.items())
    if (!item.value().is_null()) usage[item.key()] = item.value();
}

class AnthropicMessages : public ProviderApi {
 public:
  explicit AnthropicMessages(ModelSpec spec) : spec_(std::move(spec)) {}

  std::string url(bool) const override { return spec_.base_url + "/messages"; }

  std::vector<std::string> headers(const std::string& key) const override {
    return {"Content-Type: application/json", kApiVersion, "x-api-key: " + key};
  }

  nlohmann::json body(const ModelRequest& request, const WireSettings& wire,
                      bool stream) const override {
    nlohmann::json messages = nlohmann::json::array();
    for (const ChatTurn& turn : request.history) {
      messages.push_back({{"role", "user"}, {"content", turn.user}});
      messages.push_back({{"role", "assistant"}, {"content", turn.assistant}});
    }
    messages.push_back({{"role", "user"}, {"content", request.user}});
    nlohmann::json body = {
        {"model", spec_.model}, {"max_tokens", wire.max_tokens}, {"messages", messages}};
    if (!request.system.empty()) body["system"] = request.system;
    if (wire.temperature) body["temperature"] = *wire.temperature;
    if (wire.reasoning == ReasoningStyle::adaptive) {
      body["thinking"] = {{"type", "adaptive"}};
      if (!wire.effort.empty()) body["output_config"] = {{"effort", wire.effort}};
    } else if (wire.reasoning == ReasoningStyle::budget) {
      body["thinking"] = {{"type", "enabled"}, {"budget_tokens", wire.budget_tokens}};
    }
    if (stream) body["stream"] = true;
    return body;
  }

  ParsedReply parse_body(const std::string& text) const override {
    const auto doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
      return malformed_reply("the body is not a JSON object");
    if (string_at(doc, "type") == "error") return error_event_reply(doc["error"], text);
    if (!doc.contains("content") || !doc["content"].is_array())
      return malformed_reply("no content");
    ModelResult result;
    for (const auto& block : doc["content"]) {
      const std::string type = string_at(block, "type");
      if (type == "text") result.text += string_at(block, "text");
      if (type == "thinking") result.reasoning_text += string_at(block, "thinking");
    }
    result.raw_stop = string_at(doc, "stop_reason");
    result.stop = stop_of(result.raw_stop);
    result.raw_usage = doc.contains("usage") ? doc["usage"] : nlohmann::json();
    result.usage = usage_of(result.raw_usage);
    result.model = string_at(doc, "model");
    result.response_id = string_at(doc, "id");
    return {result, std::nullopt, false};
  }

  ParsedReply parse_stream(const std::string& transcript) const override {
    ModelResult result;
    std::map<int, std::string> block_types;  // index -> "text", "thinking", ...
    nlohmann::json usage = nlohmann::json::object();
    bool stopped = false;
    for (const auto& event : parse_sse(transcript)) {
      const auto doc = nlohmann::json::parse(event.data, nullptr, false);
      if (doc.is_discarded() || !doc.is_object())
        return malformed_reply("an event is not a JSON object");
      const std::string type = event.event.empty() ? string_at(doc, "type") : event.event;
      if (type == "error")
        return error_event_reply(doc.contains("error") ? doc["error"] : doc, event.data);
      if (type == "message_start" && doc.contains("message")) {
        result.model = string_at(doc["message"], "model");
        result.response_id = string_at(doc["message"], "id");
        if (doc["message"].contains("usage") && doc["message"]["usage"].is_object())
          merge_usage(usage, doc["message"]["usage"]);
      } else if (type == "content_block_start" && doc.contains("content_block")) {
        block_types[doc.value("index", 0)] = string_at(doc["content_block"], "type");
      } else if (type == "content_block_delta" && doc.contains("delta")) {
        const auto& delta = doc["delta"];
        const std::string delta_type = string_at(delta, "type");
        if (delta_type == "text_delta") result.text += string_at(delta, "text");
        if (delta_type == "thinking_delta") result.reasoning_text += string_at(delta, "thinking");
      } else if (type == "message_delta") {
        if (doc.contains("delta")) result.raw_stop = string_at(doc["delta"], "stop_reason");
        if (doc.contains("usage") && doc["usage"].is_object()) merge_usage(usage, doc["usage"]);
      } else if (type == "message_stop") {
        stopped = true;
        break;
      }
    }
    if (!stopped) return cut_stream_reply("message_stop");
    result.stop = stop_of(result.raw_stop);
    result.raw_usage = usage.empty() ? nlohmann::json() : usage;
    result.usage = usage_of(usage);
    return {result, std::nullopt, false};
  }

 private:
  ModelSpec spec_;
};

}  // namespace

std::unique_ptr<ProviderApi> make_anthropic_messages(const ModelSpec& spec) {
  return std::make_unique<AnthropicMessages>(spec);
}

}  // namespace pkb::model
