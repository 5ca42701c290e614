// The response cache: one file per terminal model answer, keyed by
// the SHA-256 of a canonical JSON object naming exactly what determines the answer's distribution
// (provider, API, endpoint, model, prompt hash, the parameters sent, sample index) and nothing
// else (no keys, timeouts, stream flag or retry policy). `--resume` and `replay:DIR` read it back.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/model/model_name.h"
#include "src/model/model_result.h"

namespace pkb::generate {

/// Bumping it invalidates every cache entry on purpose.
constexpr int kCacheSchema = 1;

struct SamplingParams {
  int max_tokens = 0;
  std::optional<std::string> temperature;  // as the user typed it: 0.7 stays "0.7"
  std::string reasoning;                   // "" when not sent
};

struct CacheKey {
  nlohmann::json fields;  // the canonical object (nlohmann objects are sorted: dump() is canonical)
  std::string sha256;     // of fields.dump()
};

CacheKey make_cache_key(const model::ModelSpec& spec, const std::string& prompt_sha256,
                        const SamplingParams& params, int sample_index);

/// What a cache file holds: the key, the request sent, the raw reply and the normalized result.
struct CacheEntry {
  CacheKey key;
  nlohmann::json request_body;
  int http_status = 0;
  std::string request_id;
  std::string raw_response;
  model::ModelResult result;
  int attempts = 0;
  double latency_s = 0;
  std::string created;  // UTC, ISO 8601
  /// Parameters changed after a 400 before this answer came (model::RequestAdjustment as JSON).
  std::vector<nlohmann::json> adjustments;
};

class ResponseCache {
 public:
  explicit ResponseCache(std::filesystem::path dir) : dir_(std::move(dir)) {}  // DIR/responses
  std::filesystem::path path_of(const std::string& key_sha256) const;  // responses/ab/abcd....json
  void store(const CacheEntry& entry) const;                           // atomic
  std::optional<CacheEntry> load(const CacheKey& key) const;  // empty when absent or unreadable

 private:
  std::filesystem::path dir_;
};

nlohmann::json to_json(const CacheEntry& entry);
/// Throws pkb::InputError naming `source` for a malformed entry.
CacheEntry cache_entry_from_json(const nlohmann::json& doc, const std::string& source);
nlohmann::json to_json(const model::ModelResult& result);
model::ModelResult model_result_from_json(const nlohmann::json& doc);


}  // namespace pkb::generate
