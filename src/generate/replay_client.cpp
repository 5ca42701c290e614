// The replay index is built once from every entry's key; entries are read again per request so a
// large run never sits in memory.
#include "src/generate/replay_client.h"

#include "src/common/error.h"
#include "src/common/sha256.h"
#include "src/generate/durable_file.h"
#include "src/generate/response_cache.h"

namespace pkb::generate {

ReplayClient::ReplayClient(const std::filesystem::path& dir) : dir_(dir) {
  const auto responses = dir / "responses";
  if (!std::filesystem::is_directory(responses))
    throw UsageError("--model replay:" + dir.string() +
                     ": no responses/ folder there (expected a pkb generate --out directory)");
  for (const auto& file : std::filesystem::recursive_directory_iterator(responses)) {
    if (!file.is_regular_file() || file.path().extension() != ".json") continue;
    const auto doc = nlohmann::json::parse(read_file(file.path()), nullptr, false);
    if (doc.is_discarded() || !doc.contains("key")) continue;
    const auto& key = doc["key"];
    index_[{key.value("prompt_sha256", ""), key.value("sample_index", -1)}] = file.path();
  }
}

model::ModelOutcome ReplayClient::generate(const model::ModelRequest& request) {
  model::ModelOutcome outcome;
  const std::string prompt_sha = sha256_hex(request.user);
  const auto found = index_.find({prompt_sha, request.sample_index});
  if (found == index_.end()) {
    outcome.failure = model::ApiFailure{
        model::FailureKind::fail_sample,
        "replay: " + dir_.string() + " has no answer for this prompt (sha256 " +
            prompt_sha.substr(0, 12) + ") and sample " + std::to_string(request.sample_index),
        0, std::nullopt};
    return outcome;
  }
  const CacheEntry entry = cache_entry_from_json(nlohmann::json::parse(read_file(found->second)),
                                                 found->second.string());
  outcome.result = entry.result;
  outcome.request_body = entry.request_body;
  outcome.raw_response = entry.raw_response;
  outcome.http_status = entry.http_status;
  outcome.request_id = entry.request_id;
  outcome.attempts.push_back({entry.http_status, "", entry.request_id, 0, 0});
  return outcome;
}

}  // namespace pkb::generate
