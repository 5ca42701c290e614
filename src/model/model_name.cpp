// Model-name parsing and keys. Keys are read here and handed to the client only; nothing else
// holds them, and nothing writes them anywhere.
#include "src/model/model_name.h"

#include <cstdlib>
#include <vector>

#include "src/common/did_you_mean.h"
#include "src/common/error.h"

namespace pkb::model {
namespace {

struct ProviderEntry {
  Provider provider;
  const char* name;
  Api api;
  const char* default_base;
};

const ProviderEntry kProviders[] = {
    {Provider::openai, "openai", Api::chat, "https://api.openai.com/v1"},
    {Provider::openai_responses, "openai-responses", Api::responses, "https://api.openai.com/v1"},
    {Provider::anthropic, "anthropic", Api::messages, "https://api.anthropic.com/v1"},
    {Provider::gemini, "gemini", Api::generate_content,
     "https://generativelanguage.googleapis.com/v1beta"},
    {Provider::together, "together", Api::chat, "https://api.together.xyz/v1"},
    {Provider::openai_compat, "openai-compat", Api::chat, ""},
    {Provider::replay, "replay", Api::replay, ""},
};

const char* getenv_nonempty(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

}  // namespace

std::string_view provider_name(Provider provider) {
  for (const auto& entry : kProviders)
    if (entry.provider == provider) return entry.name;
  return "unknown";
}

std::string_view api_name(Api api) {
  switch (api) {
    case Api::chat: return "chat";
    case Api::responses: return "responses";
    case Api::messages: return "messages";
    case Api::generate_content: return "generateContent";
    case Api::replay: return "replay";
  }
  return "unknown";
}

std::string_view base_url_convention(Provider provider) {
  switch (provider) {
    case Provider::openai:
    case Provider::together:
    case Provider::openai_compat: return "posts to BASE/chat/completions, BASE ending in /v1";
    case Provider::openai_responses: return "posts to BASE/responses, BASE ending in /v1";
    case Provider::anthropic: return "posts to BASE/messages, BASE ending in /v1";
    case Provider::gemini:
      return "posts to BASE/models/MODEL:streamGenerateContent, BASE ending in /v1beta";
    case Provider::replay: return "reads files, no base URL";
  }
  return "";
}

std::string normalize_base_url(const std::string& url, const std::string& flag) {
  const std::string bad = flag + " " + url + ": expected http://HOST[:PORT][/PATH] or https://...";
  const std::size_t scheme_end = url.find("://");
  if (scheme_end == std::string::npos) throw UsageError(bad);
  const std::string scheme = url.substr(0, scheme_end);
  if (scheme != "http" && scheme != "https") throw UsageError(bad);
  const std::string rest = url.substr(scheme_end + 3);
  const std::string authority = rest.substr(0, rest.find('/'));
  const std::size_t colon = authority.rfind(':');
  const std::string host = authority.substr(0, colon);
  if (host.empty() || host.find_first_of(" \t@?#") != std::string::npos) throw UsageError(bad);
  if (colon != std::string::npos) {
    const std::string port = authority.substr(colon + 1);
    if (port.empty() || port.size() > 5 ||
        port.find_first_not_of("0123456789") != std::string::npos || std::stoi(port) == 0 ||
        std::stoi(port) > 65535)
      throw UsageError(bad);
  }
  std::string out = url;
  while (!out.empty() && out.back() == '/') out.pop_back();
  return out;
}

ModelSpec parse_model_name(const std::string& text, const std::string& base_url_flag) {
  const std::size_t colon = text.find(':');
  std::vector<std::string> names;
  for (const auto& entry : kProviders) names.emplace_back(entry.name);
  std::string all;
  for (const auto& name : names) all += (all.empty() ? "" : ", ") + name;
  if (colon == std::string::npos)
    throw UsageError("--model " + text + ": expected PROVIDER:MODEL with PROVIDER one of " + all);
  const std::string prefix = text.substr(0, colon);
  ModelSpec spec;
  spec.text = text;
  spec.model = text.substr(colon + 1);
  const ProviderEntry* found = nullptr;
  for (const auto& entry : kProviders)
    if (prefix == entry.name) found = &entry;
  if (!found) {
    if (auto near = closest_match(prefix, names))
      throw UsageError("--model " + text + ": unknown provider '" + prefix + "', did you mean '" +
                       *near + "'?");
    throw UsageError("--model " + text + ": unknown provider '" + prefix + "' (providers: " + all +
                     ")");
  }
  if (spec.model.empty())
    throw UsageError("--model " + text + ": no model after '" + prefix + ":'");
  if (found->provider == Provider::together && spec.model.find('/') == std::string::npos)
    throw UsageError("--model " + text + ": expected together:ORG/MODEL");
  spec.provider = found->provider;
  spec.api = found->api;
  if (!base_url_flag.empty()) {
    if (spec.provider == Provider::replay)
      throw UsageError("--base-url: replay models read files, not a server");
    spec.base_url = normalize_base_url(base_url_flag, "--base-url");
    spec.custom_base = true;
  } else if (spec.provider == Provider::openai_compat) {
    throw UsageError("--model " + text +
                     ": openai-compat needs --base-url URL (e.g. http://localhost:8000/v1)");
  } else {
    spec.base_url = found->default_base;
  }
  return spec;
}

std::string api_key_env_names(Provider provider) {
  switch (provider) {
    case Provider::openai:
    case Provider::openai_responses: return "OPENAI_API_KEY";
    case Provider::anthropic: return "ANTHROPIC_API_KEY";
    case Provider::gemini: return "GEMINI_API_KEY or GOOGLE_API_KEY";
    case Provider::together: return "TOGETHER_API_KEY";
    case Provider::openai_compat: return "OPENAI_COMPAT_API_KEY";
    case Provider::replay: return "";
  }
  return "";
}

std::string api_key_from_env(const ModelSpec& spec) {
  const char* key = nullptr;
  switch (spec.provider) {
    case Provider::openai:
    case Provider::openai_responses: key = getenv_nonempty("OPENAI_API_KEY"); break;
    case Provider::anthropic: key = getenv_nonempty("ANTHROPIC_API_KEY"); break;
    case Provider::gemini:
      key = getenv_nonempty("GEMINI_API_KEY");
      if (!key) key = getenv_nonempty("GOOGLE_API_KEY");
      break;
    case Provider::together: key = getenv_nonempty("TOGETHER_API_KEY"); break;
    case Provider::openai_compat:  // local servers usually need none
      key = getenv_nonempty("OPENAI_COMPAT_API_KEY");
      return key ? key : "";
    case Provider::replay: return "";
  }
  if (!key)
    throw UsageError("--model " + spec.text + ": " + api_key_env_names(spec.provider) +
                     " is not set");
  return key;
}

}  // namespace pkb::model
