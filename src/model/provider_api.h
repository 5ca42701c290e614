// One provider's wire format: where to POST, which headers, the request body, and how a 200 reply
// (a JSON body, or an SSE transcript when streaming) becomes a ModelResult. The retry loop,
// timeouts and concurrency live in ModelClient above this, once for every provider.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/model/model_name.h"
#include "src/model/model_result.h"
#include "src/model/request_settings.h"

namespace pkb::model {

struct ParsedReply {
  std::optional<ModelResult> result;
  std::optional<ApiFailure> failure;  // an error event, a cut stream, an unparseable body
  bool malformed = false;             // the body or an event was not the JSON expected
};

class ProviderApi {
 public:
  virtual ~ProviderApi() = default;
  virtual std::string url(bool stream) const = 0;
  /// Auth and version headers. `key` may be empty (local servers without --api-key).
  virtual std::vector<std::string> headers(const std::string& key) const = 0;
  /// The messages come from `request`; every parameter (cap, temperature, reasoning) from `wire`.
  virtual nlohmann::json body(const ModelRequest& request, const WireSettings& wire,
                              bool stream) const = 0;
  virtual ParsedReply parse_body(const std::string& body) const = 0;
  /// A stream that ends without its terminal event is a retryable failure.
  virtual ParsedReply parse_stream(const std::string& transcript) const = 0;
};

std::unique_ptr<ProviderApi> make_openai_chat(const ModelSpec& spec);
std::unique_ptr<ProviderApi> make_openai_responses(const ModelSpec& spec);
std::unique_ptr<ProviderApi> make_anthropic_messages(const ModelSpec& spec);
std::unique_ptr<ProviderApi> make_gemini_generate(const ModelSpec& spec);
/// By spec.api; throws pkb::UsageError for replay (not an HTTP provider).
std::unique_ptr<ProviderApi> make_provider_api(const ModelSpec& spec);

/// Shared by the implementations.
ParsedReply malformed_reply(const std::string& what);
ParsedReply cut_stream_reply(const std::string& terminal);
ParsedReply error_event_reply(const nlohmann::json& error_object, const std::string& raw);
std::optional<std::int64_t> count_at(const nlohmann::json& doc, const char* key);
std::string string_at(const nlohmann::json& doc, const char* key);

}  // namespace pkb::model
