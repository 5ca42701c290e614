// Model names as users type them (README.md, "Commands"): openai:MODEL (Chat Completions),
// openai-responses:MODEL, anthropic:MODEL, gemini:MODEL, together:org/model,
// openai-compat:MODEL with --base-url URL, and replay:DIR.
#pragma once

#include <string>
#include <string_view>

namespace pkb::model {

/// Enumerators equal their serialized names (the prefix of the model name).
enum class Provider {
  openai,
  openai_responses,
  anthropic,
  gemini,
  together,
  openai_compat,
  replay
};
std::string_view provider_name(Provider provider);  // "openai-responses", "openai-compat", ...

/// Which wire format a provider speaks.
enum class Api { chat, responses, messages, generate_content, replay };
std::string_view api_name(Api api);  // "chat", "responses", "messages", "generateContent", "replay"

struct ModelSpec {
  Provider provider = Provider::openai;
  Api api = Api::chat;
  std::string model;         // as requested, without the prefix; for replay, the directory
  std::string base_url;      // normalized: no trailing '/'
  bool custom_base = false;  // base_url came from --base-url
  std::string text;          // the name as typed
};

/// Throws pkb::UsageError naming --model or --base-url: an unknown provider (with a suggestion),
/// an empty model, --base-url missing for openai-compat, a base URL that does not parse.
ModelSpec parse_model_name(const std::string& text, const std::string& base_url_flag);

/// Environment variables holding the key, in the order they are tried (empty for replay; for
/// openai-compat, OPENAI_COMPAT_API_KEY, optional).
std::string api_key_env_names(Provider provider);  // "GEMINI_API_KEY or GOOGLE_API_KEY"

/// The key from the environment. Throws pkb::UsageError naming the variable when a provider that
/// needs one has none; returns "" for providers that need none.
std::string api_key_from_env(const ModelSpec& spec);

/// Where requests go relative to the base URL, for --help and hints: "posts to BASE/messages,
/// BASE ending in /v1".
std::string_view base_url_convention(Provider provider);

/// Checks "http(s)://host[:port][/path]"; returns the URL without a trailing '/'.
std::string normalize_base_url(const std::string& url, const std::string& flag);

}  // namespace pkb::model
