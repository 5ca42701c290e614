// Writing samples.jsonl (docs/RESULTS.md): one JSON object per record, appended and flushed one line
// at a time while a run goes (SamplesLog), rewritten whole only by resume, evaluate, merge and shard
// splits (write_samples_file), and read back for --resume (prepare_resume). Reading for scoring is
// results_dir.h; both read lines through jsonl_file.h, with its one rule for a torn last line.
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace pkb::results {

using SampleId = std::pair<std::string, int>;      // problem key, sample index
using TurnId = std::tuple<std::string, int, int>;  // problem key, sample index, turn

struct ResumeState {
  std::set<SampleId> finished;  // samples whose last turn has a model answer and ends them
  /// Samples whose conversation goes on (`pkb run --turns`): their kept records, oldest turn
  /// first, the last one naming the feedback for the next turn.
  std::map<SampleId, std::vector<nlohmann::json>> unfinished;
  std::set<TurnId> recorded;  // every turn kept in the file
  int dropped_torn = 0;       // a last line cut by a crash
  int dropped_failed = 0;     // api_error records, asked again
};

/// Reads `path` for --resume and rewrites it (atomically) without the records that will be asked
/// again, so each (sample, turn) ends up in the file exactly once. A missing file is an empty run.
/// A record continues its conversation when its `conversation.end` is null (conversation.h);
/// records without `conversation` (pkb generate, older runs) end theirs.
ResumeState prepare_resume(const std::filesystem::path& path);

/// Replaces `path` whole and atomically with `lines` (each ending in '\n', or empty).
void write_samples_file(const std::filesystem::path& path, const std::string& lines);

class SamplesLog {
 public:
  explicit SamplesLog(std::filesystem::path path) : path_(std::move(path)) {}
  void append(const nlohmann::json& record);  // thread-safe; one durable line

 private:
  std::filesystem::path path_;
  std::mutex mutex_;
};

}  // namespace pkb::results
