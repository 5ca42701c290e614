// OpenAI Responses: the answer is the output_text parts of the `message` items of output[] (never
// assume output[0]); reasoning items carry summaries. A stream ends with response.completed,
// .incomplete or .failed, each carrying the whole response, which is parsed like a body.
#include <nlohmann/json.hpp>

#include "src/model/provider_api.h"
#include "src/model/sse.h"

namespace pkb::model {
namespace {

Usage usage_of(const nlohmann::json& usage) {
  Usage out;
  if (!usage.is_object()) return out;
  out.input = count_at(usage, "input_tokens");
  out.output = count_at(usage, "output_tokens");
  if (usage.contains("input_tokens_details"))
    out.cached = count_at(usage["input_tokens_details"], "cached_tokens");
  if (usage.contains("output_tokens_details"))
    out.reasoning = count_at(usage["output_tokens_details"], "reasoning_tokens");
  return out;
}

class OpenAiResponses : public ProviderApi {
 public:
  explicit OpenAiResponses(ModelSpec spec) : spec_(std::move(spec)) {}

  std::string url(bool) const override { return spec_.base_url + "/responses"; }

  std::vector<std::string> headers(const std::string& key) const override {
    std::vector<std::string> out = {"Content-Type: application/json"};
    if (!key.empty()) out.push_back("Authorization: Bearer " + key);
    return out;
  }

  nlohmann::json body(const ModelRequest& request, const WireSettings& wire,
                      bool stream) const override {
    // A first turn sends the prompt as a plain string; a conversation sends its messages (the
    // request is stateless: store is false, so no previous_response_id).
    nlohmann::json input = request.user;
    if (!request.history.empty()) {
      input = nlohmann::json::array();
      for (const ChatTurn& turn : request.history) {
        input.push_back({{"role", "user"}, {"content", turn.user}});
        input.push_back({{"role", "assistant"}, {"content", turn.assistant}});
      }
      input.push_back({{"role", "user"}, {"content", request.user}});
    }
    nlohmann::json body = {{"model", spec_.model},
                           {"input", input},
                           {"max_output_tokens", wire.max_tokens},
                           {"store", false}};
    if (!request.system.empty()) body["instructions"] = request.system;
    if (wire.temperature) body["temperature"] = *wire.temperature;
    // A summary is asked for only where the model table says so: organizations without
    // verification get a 400 for it.
    nlohmann::json reasoning = nlohmann::json::object();
    if (wire.reasoning == ReasoningStyle::effort && !wire.effort.empty())
      reasoning["effort"] = wire.effort;
    if (wire.summary) reasoning["summary"] = "auto";
    if (!reasoning.empty()) body["reasoning"] = reasoning;
    if (stream) body["stream"] = true;
    return body;
  }

  ParsedReply parse_body(const std::string& text) const override {
    const auto doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
      return malformed_reply("the body is not a JSON object");
    return parse_response(doc, text);
  }

  ParsedReply parse_stream(const std::string& transcript) const override {
    for (const auto& event : parse_sse(transcript)) {
      const auto doc = nlohmann::json::parse(event.data, nullptr, false);
      if (doc.is_discarded() || !doc.is_object())
        return malformed_reply("an event is not a JSON object");
      const std::string type = event.event.empty() ? string_at(doc, "type") : event.event;
      if (type == "error")
        return error_event_reply(doc.contains("error") ? doc["error"] : doc, event.data);
      if (type == "response.completed" || type == "response.incomplete" ||
          type == "response.failed") {
        if (!doc.contains("response") || !doc["response"].is_object())
          return malformed_reply(type + " without a response");
        return parse_response(doc["response"], event.data);
      }
    }
    return cut_stream_reply("response.completed");
  }

 private:
  ParsedReply parse_response(const nlohmann::json& doc, const std::string& raw) const {
    const std::string status = string_at(doc, "status");
    if (status == "failed" || (doc.contains("error") && doc["error"].is_object()))
      return error_event_reply(doc.contains("error") ? doc["error"] : nlohmann::json::object(),
                               raw);
    ModelResult result;
    std::string refusal;
    if (doc.contains("output") && doc["output"].is_array()) {
      for (const auto& item : doc["output"]) {
        const std::string type = string_at(item, "type");
        if (type == "reasoning" && item.contains("summary") && item["summary"].is_array())
          for (const auto& part : item["summary"]) result.reasoning_text += string_at(part, "text");
        if (type != "message" || !item.contains("content") || !item["content"].is_array()) continue;
        for (const auto& part : item["content"]) {
          if (string_at(part, "type") == "output_text") result.text += string_at(part, "text");
          if (string_at(part, "type") == "refusal") refusal += string_at(part, "refusal");
        }
      }
    }
    const std::string reason =
        doc.contains("incomplete_details") && doc["incomplete_details"].is_object()
            ? string_at(doc["incomplete_details"], "reason")
            : "";
    result.raw_stop = reason.empty() ? status : status + ":" + reason;
    if (status == "completed")
      result.stop =
          !refusal.empty() && result.text.empty() ? StopReason::refused : StopReason::complete;
    else if (reason == "max_output_tokens")
      result.stop = StopReason::truncated;
    else if (reason == "content_filter")
      result.stop = StopReason::filtered;
    else
      result.stop = StopReason::other;
    result.raw_usage = doc.contains("usage") ? doc["usage"] : nlohmann::json();
    result.usage = usage_of(result.raw_usage);
    result.model = string_at(doc, "model");
    result.response_id = string_at(doc, "id");
    return {result, std::nullopt, false};
  }

  ModelSpec spec_;
};

}  // namespace

std::unique_ptr<ProviderApi> make_openai_responses(const ModelSpec& spec) {
  return std::make_unique<OpenAiResponses>(spec);
}

}  // namespace pkb::model
