// Cache files: responses/<first two hex digits>/<key>.json, so no folder grows past a few thousand.
#include "src/generate/response_cache.h"

#include <chrono>
#include <ctime>

#include "src/common/error.h"
#include "src/common/sha256.h"
#include "src/results/durable_file.h"

namespace pkb::generate {

CacheKey make_cache_key(const model::ModelSpec& spec, const std::string& prompt_sha256,
                        const SamplingParams& params, int sample_index) {
  nlohmann::json sent = {{"max_tokens", params.max_tokens}};
  if (params.temperature) sent["temperature"] = *params.temperature;
  if (!params.reasoning.empty()) sent["reasoning"] = params.reasoning;
  CacheKey key;
  key.fields = {{"schema", kCacheSchema},
                {"provider", std::string(model::provider_name(spec.provider))},
                {"api", std::string(model::api_name(spec.api))},
                {"model", spec.model},
                {"prompt_sha256", prompt_sha256},
                {"params", sent},
                {"sample_index", sample_index}};
  // The same model name on two servers is two models; a provider's own default base is not.
  if (spec.custom_base || spec.provider == model::Provider::openai_compat)
    key.fields["endpoint"] = spec.base_url;
  key.sha256 = sha256_hex(key.fields.dump());
  return key;
}

nlohmann::json to_json(const model::ModelResult& result) {
  return {{"text", result.text},
          {"reasoning_text", result.reasoning_text},
          {"stop_reason", std::string(model::stop_reason_name(result.stop))},
          {"raw_stop_reason", result.raw_stop},
          {"usage", model::to_json(result.usage)},
          {"raw_usage", result.raw_usage},
          {"model", result.model},
          {"response_id", result.response_id}};
}

model::ModelResult model_result_from_json(const nlohmann::json& doc) {
  model::ModelResult result;
  result.text = doc.at("text").get<std::string>();
  result.reasoning_text = doc.value("reasoning_text", "");
  const auto stop = model::parse_stop_reason(doc.at("stop_reason").get<std::string>());
  if (!stop)
    throw InputError("stop_reason: expected complete, truncated, refused, filtered or other");
  result.stop = *stop;
  result.raw_stop = doc.value("raw_stop_reason", "");
  result.usage = model::usage_from_json(doc.value("usage", nlohmann::json::object()));
  result.raw_usage = doc.value("raw_usage", nlohmann::json());
  result.model = doc.value("model", "");
  result.response_id = doc.value("response_id", "");
  return result;
}

nlohmann::json to_json(const CacheEntry& entry) {
  nlohmann::json doc = {{"schema_version", kCacheSchema},    {"key", entry.key.fields},
                        {"key_sha256", entry.key.sha256},    {"created", entry.created},
                        {"request", entry.request_body},     {"http_status", entry.http_status},
                        {"request_id", entry.request_id},    {"attempts", entry.attempts},
                        {"latency_s", entry.latency_s},      {"result", to_json(entry.result)},
                        {"raw_response", entry.raw_response}};
  // Only when there are some, so entries of requests sent as the table built them are unchanged.
  if (!entry.adjustments.empty()) doc["request_adjustments"] = entry.adjustments;
  return doc;
}

CacheEntry cache_entry_from_json(const nlohmann::json& doc, const std::string& source) {
  try {
    CacheEntry entry;
    entry.key.fields = doc.at("key");
    entry.key.sha256 = doc.at("key_sha256").get<std::string>();
    entry.created = doc.value("created", "");
    entry.request_body = doc.value("request", nlohmann::json());
    entry.http_status = doc.value("http_status", 0);
    entry.request_id = doc.value("request_id", "");
    entry.attempts = doc.value("attempts", 0);
    entry.latency_s = doc.value("latency_s", 0.0);
    entry.result = model_result_from_json(doc.at("result"));
    entry.raw_response = doc.value("raw_response", "");
    if (doc.contains("request_adjustments") && doc["request_adjustments"].is_array())
      for (const auto& adjustment : doc["request_adjustments"])
        entry.adjustments.push_back(adjustment);
    return entry;
  } catch (const nlohmann::json::exception& error) {
    throw InputError(source + ": not a pkb response cache entry: " + error.what());
  }
}

std::filesystem::path ResponseCache::path_of(const std::string& key_sha256) const {
  return dir_ / key_sha256.substr(0, 2) / (key_sha256 + ".json");
}

void ResponseCache::store(const CacheEntry& entry) const {
  results::write_file_atomic(path_of(entry.key.sha256), to_json(entry).dump(1) + "\n");
}

std::optional<CacheEntry> ResponseCache::load(const CacheKey& key) const {
  const auto path = path_of(key.sha256);
  if (!std::filesystem::is_regular_file(path)) return std::nullopt;
  const auto doc = nlohmann::json::parse(results::read_file(path), nullptr, false);
  if (doc.is_discarded()) return std::nullopt;
  CacheEntry entry = cache_entry_from_json(doc, path.string());
  if (entry.key.fields != key.fields)
    return std::nullopt;  // a hash collision, or a hand-edited file
  return entry;
}

}  // namespace pkb::generate
