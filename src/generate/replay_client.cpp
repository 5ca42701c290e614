// The replay index is built once from every entry's key and every answer's file name; entries are
// read again per request so a large run never sits in memory.
#include "src/generate/replay_client.h"

#include <regex>

#include "src/common/error.h"
#include "src/common/sha256.h"
#include "src/results/durable_file.h"
#include "src/generate/response_cache.h"

namespace pkb::generate {
namespace fs = std::filesystem;

ReplayClient::ReplayClient(const fs::path& dir) : dir_(dir) {
  const auto responses = dir / "responses";
  const auto answers = dir / "answers";
  if (!fs::is_directory(responses) && !fs::is_directory(answers) && !fs::is_regular_file(dir / "replay.json"))
    throw UsageError("--model replay:" + dir.string() +
                     ": no responses/ folder there (expected a pkb generate --out directory)");
  if (fs::is_directory(responses))
    for (const auto& file : fs::recursive_directory_iterator(responses)) {
      if (!file.is_regular_file() || file.path().extension() != ".json") continue;
      const auto doc = nlohmann::json::parse(results::read_file(file.path()), nullptr, false);
      if (doc.is_discarded() || !doc.contains("key")) continue;
      const auto& key = doc["key"];
      index_[{key.value("prompt_sha256", ""), key.value("sample_index", -1)}] = file.path();
    }
  if (const auto config = dir / "replay.json"; fs::is_regular_file(config)) {
    const auto doc = nlohmann::json::parse(results::read_file(config), nullptr, false);
    if (!doc.is_object() || (doc.contains("problem_answers") && !doc["problem_answers"].is_string()))
      throw InputError(config.string() + ": problem_answers: expected a folder path (a string), got " +
                       (doc.is_object() ? doc["problem_answers"].dump() : std::string("text that is not a JSON object")));
    if (doc.contains("problem_answers")) {
      const fs::path root = dir / doc["problem_answers"].get<std::string>();
      if (!fs::is_directory(root))
        throw InputError(config.string() + ": problem_answers: " + root.string() + " is not a folder");
      for (const auto& problem : fs::directory_iterator(root))
        if (fs::is_regular_file(problem.path() / "answer.md"))
          problem_answers_[problem.path().filename().string()] = problem.path() / "answer.md";
    }
  }
  if (fs::is_directory(answers)) {
    static const std::regex name(R"(sample_(\d+)(?:\.turn_(\d+))?\.md)");
    for (const auto& problem : fs::directory_iterator(answers)) {
      if (!problem.is_directory()) continue;
      for (const auto& file : fs::directory_iterator(problem.path())) {
        std::smatch match;
        const std::string filename = file.path().filename().string();
        if (file.is_regular_file() && std::regex_match(filename, match, name))
          answers_[{problem.path().filename().string(), std::stoi(match[1]),
                    match[2].matched ? std::stoi(match[2]) : 0}] = file.path();
      }
    }
  }
}

const fs::path* ReplayClient::problem_answer(const std::string& problem_key) const {
  const auto folder = answers_.lower_bound({problem_key, 0, 0});
  if (folder != answers_.end() && std::get<0>(folder->first) == problem_key) return nullptr;
  const auto found = problem_answers_.find(problem_key);
  return found == problem_answers_.end() ? nullptr : &found->second;
}

bool ReplayClient::covers(const std::string& problem_key, const std::string& prompt_sha256) const {
  const auto answer = answers_.lower_bound({problem_key, 0, 0});
  if (answer != answers_.end() && std::get<0>(answer->first) == problem_key) return true;
  if (problem_answer(problem_key)) return true;
  const auto entry = index_.lower_bound({prompt_sha256, -1});
  return entry != index_.end() && entry->first.first == prompt_sha256;
}

model::ModelOutcome ReplayClient::from_answer(const fs::path& file) const {
  model::ModelOutcome outcome;
  model::ModelResult result;
  result.text = results::read_file(file);
  result.stop = model::StopReason::complete;
  result.raw_stop = "replay";
  result.model = "replay";
  outcome.result = result;
  outcome.request_body = {{"replay", file.lexically_normal().lexically_relative(dir_.lexically_normal()).generic_string()}};
  outcome.raw_response = result.text;
  outcome.http_status = 200;
  outcome.attempts.push_back({200, "", "", 0, 0});
  return outcome;
}

model::ModelOutcome ReplayClient::generate(const model::ModelRequest& request) {
  model::ModelOutcome outcome;
  const std::string prompt_sha = model::conversation_sha256(request.history, request.user);
  const auto found = index_.find({prompt_sha, request.sample_index});
  if (found == index_.end()) {
    const std::string problem = request.label.substr(0, request.label.find('#'));
    const std::string turn_text =
        request.turn ? " turn " + std::to_string(request.turn) : std::string();
    const std::string turn_file =
        request.turn ? ".turn_" + std::to_string(request.turn) : std::string();
    const auto answer = answers_.find({problem, request.sample_index, request.turn});
    if (answer != answers_.end()) return from_answer(answer->second);
    if (const fs::path* reference = request.turn == 0 ? problem_answer(problem) : nullptr)
      return from_answer(*reference);
    outcome.failure = model::ApiFailure{
        model::FailureKind::fail_sample,
        "replay: " + dir_.string() + " has no answer for " + problem + " sample " +
            std::to_string(request.sample_index) + turn_text + " (no answers/" + problem +
            "/sample_" + std::to_string(request.sample_index) + turn_file +
            ".md, no cached response for prompt sha256 " + prompt_sha.substr(0, 12) + ")",
        0, std::nullopt};
    return outcome;
  }
  const CacheEntry entry = cache_entry_from_json(nlohmann::json::parse(results::read_file(found->second)),
                                                 found->second.string());
  outcome.result = entry.result;
  outcome.request_body = entry.request_body;
  outcome.raw_response = entry.raw_response;
  outcome.http_status = entry.http_status;
  outcome.request_id = entry.request_id;
  outcome.attempts.push_back({entry.http_status, "", entry.request_id, 0, 0});
  return outcome;
}

fs::path resolve_replay_dir(const std::string& dir, const fs::path& source_root) {
  const fs::path given(dir);
  if (given.is_absolute() || fs::exists(given) || source_root.empty()) return given;
  const fs::path in_source = source_root / given;
  return fs::exists(in_source) ? in_source : given;
}

}  // namespace pkb::generate
