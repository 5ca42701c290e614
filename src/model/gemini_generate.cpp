// Gemini generateContent: text parts whose `thought` is true are reasoning. Thoughts are not inside
// candidatesTokenCount, so output = candidates + thoughts. The stream (streamGenerateContent with
// alt=sse) has no end marker: the chunk carrying finishReason is the last, and a stream without one
// was cut.
#include <nlohmann/json.hpp>

#include "src/model/provider_api.h"
#include "src/model/sse.h"

namespace pkb::model {
namespace {

StopReason stop_of(const std::string& raw) {
  if (raw == "STOP") return StopReason::complete;
  if (raw == "MAX_TOKENS") return StopReason::truncated;
  for (const char* filtered :
       {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"})
    if (raw == filtered) return StopReason::filtered;
  return StopReason::other;
}

Usage usage_of(const nlohmann::json& usage) {
  Usage out;
  if (!usage.is_object()) return out;
  out.input = count_at(usage, "promptTokenCount");
  out.cached = count_at(usage, "cachedContentTokenCount");
  const auto visible = count_at(usage, "candidatesTokenCount");
  out.reasoning = count_at(usage, "thoughtsTokenCount");
  if (visible || out.reasoning) out.output = visible.value_or(0) + out.reasoning.value_or(0);
  return out;
}

// Adds one response chunk (or a whole response) to `result`; true when it carried finishReason.
bool add_chunk(const nlohmann::json& doc, ModelResult& result) {
  if (doc.contains("usageMetadata")) {
    result.raw_usage = doc["usageMetadata"];
    result.usage = usage_of(doc["usageMetadata"]);
  }
  if (result.model.empty()) result.model = string_at(doc, "modelVersion");
  if (result.response_id.empty()) result.response_id = string_at(doc, "responseId");
  if (doc.contains("promptFeedback") && doc["promptFeedback"].contains("blockReason") &&
      (!doc.contains("candidates") || doc["candidates"].empty())) {
    result.raw_stop = "blocked:" + string_at(doc["promptFeedback"], "blockReason");
    result.stop = StopReason::filtered;
    return true;
  }
  if (!doc.contains("candidates") || !doc["candidates"].is_array() || doc["candidates"].empty())
    return false;
  const auto& candidate = doc["candidates"][0];
  if (candidate.contains("content") && candidate["content"].contains("parts") &&
      candidate["content"]["parts"].is_array())
    for (const auto& part : candidate["content"]["parts"]) {
      const bool thought =
          part.contains("thought") && part["thought"].is_boolean() && part["thought"].get<bool>();
      (thought ? result.reasoning_text : result.text) += string_at(part, "text");
    }
  const std::string finish = string_at(candidate, "finishReason");
  if (finish.empty()) return false;
  result.raw_stop = finish;
  result.stop = stop_of(finish);
  return true;
}

class GeminiGenerate : public ProviderApi {
 public:
  explicit GeminiGenerate(ModelSpec spec) : spec_(std::move(spec)) {}

  std::string url(bool stream) const override {
    return spec_.base_url + "/models/" + spec_.model +
           (stream ? ":streamGenerateContent?alt=sse" : ":generateContent");
  }

  std::vector<std::string> headers(const std::string& key) const override {
    return {"Content-Type: application/json", "x-goog-api-key: " + key};
  }

  nlohmann::json body(const ModelRequest& request, const WireSettings& wire, bool) const override {
    nlohmann::json config = {{"maxOutputTokens", wire.max_tokens}, {"candidateCount", 1}};
    if (wire.temperature) config["temperature"] = *wire.temperature;
    // Gemini 2.5 takes thinkingBudget, Gemini 3 thinkingLevel, and both at once is a 400.
    // Thoughts are asked for even without --reasoning: a thinking model streams them instead of
    // staying silent until its first answer byte.
    nlohmann::json thinking = nlohmann::json::object();
    if (wire.reasoning == ReasoningStyle::level && !wire.effort.empty())
      thinking["thinkingLevel"] = wire.effort;
    if (wire.reasoning == ReasoningStyle::budget) thinking["thinkingBudget"] = wire.budget_tokens;
    if (wire.summary) thinking["includeThoughts"] = true;
    if (!thinking.empty()) config["thinkingConfig"] = thinking;
    nlohmann::json contents = nlohmann::json::array();
    for (const ChatTurn& turn : request.history) {
      contents.push_back({{"role", "user"}, {"parts", {{{"text", turn.user}}}}});
      contents.push_back({{"role", "model"}, {"parts", {{{"text", turn.assistant}}}}});
    }
    contents.push_back({{"role", "user"}, {"parts", {{{"text", request.user}}}}});
    nlohmann::json body = {{"contents", contents}, {"generationConfig", config}};
    if (!request.system.empty())
      body["systemInstruction"] = {{"parts", {{{"text", request.system}}}}};
    return body;
  }

  ParsedReply parse_body(const std::string& text) const override {
    const auto doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
      return malformed_reply("the body is not a JSON object");
    if (doc.contains("error")) return error_event_reply(doc["error"], text);
    ModelResult result;
    if (!add_chunk(doc, result)) return malformed_reply("no candidate with a finishReason");
    return {result, std::nullopt, false};
  }

  ParsedReply parse_stream(const std::string& transcript) const override {
    ModelResult result;
    for (const auto& event : parse_sse(transcript)) {
      const auto doc = nlohmann::json::parse(event.data, nullptr, false);
      if (doc.is_discarded() || !doc.is_object())
        return malformed_reply("an event is not a JSON object");
      if (doc.contains("error")) return error_event_reply(doc["error"], event.data);
      if (add_chunk(doc, result)) return {result, std::nullopt, false};
    }
    return cut_stream_reply("a chunk with finishReason");
  }

 private:
  ModelSpec spec_;
};

}  // namespace

std::unique_ptr<ProviderApi> make_gemini_generate(const ModelSpec& spec) {
  return std::make_unique<GeminiGenerate>(spec);
}

}  // namespace pkb::model
