// The factory and the helpers every wire format shares.
#include "src/model/provider_api.h"

#include "src/common/error.h"
#include "src/model/error_policy.h"

namespace pkb::model {

std::unique_ptr<ProviderApi> make_provider_api(const ModelSpec& spec) {
  switch (spec.api) {
    case Api::chat: return make_openai_chat(spec);
    case Api::responses: return make_openai_responses(spec);
    case Api::messages: return make_anthropic_messages(spec);
    case Api::generate_content: return make_gemini_generate(spec);
    case Api::replay: break;
  }
  throw UsageError("--model " + spec.text + ": not an HTTP provider");
}

ParsedReply malformed_reply(const std::string& what) {
  ParsedReply reply;
  reply.malformed = true;
  reply.failure = ApiFailure{FailureKind::retry, "malformed reply: " + what, 200, std::nullopt};
  return reply;
}

ParsedReply cut_stream_reply(const std::string& terminal) {
  ParsedReply reply;
  reply.failure =
      ApiFailure{FailureKind::retry, "stream ended before " + terminal, 200, std::nullopt};
  return reply;
}

ParsedReply error_event_reply(const nlohmann::json& error_object, const std::string& raw) {
  const ErrorBody error = parse_error_body(nlohmann::json{{"error", error_object}}.dump());
  ParsedReply reply;
  ApiFailure failure;
  failure.http_status = 200;
  failure.kind = classify_error(200, error, raw);
  failure.message = "error in stream: " + (error.type.empty() ? error.code : error.type) +
                    (error.message.empty() ? "" : ": " + error.message);
  failure.wait_hint_s = error.retry_delay_s;
  reply.failure = failure;
  return reply;
}

std::optional<std::int64_t> count_at(const nlohmann::json& doc, const char* key) {
  if (!doc.is_object() || !doc.contains(key) || !doc[key].is_number_integer()) return std::nullopt;
  return doc[key].get<std::int64_t>();
}

std::string string_at(const nlohmann::json& doc, const char* key) {
  if (!doc.is_object() || !doc.contains(key) || !doc[key].is_string()) return "";
  return doc[key].get<std::string>();
}

}  // namespace pkb::model
