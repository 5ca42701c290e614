// samples.jsonl and generate.jsonl (docs/RESULTS.md), read and written only here: records are
// appended and flushed one line at a time while a run goes (SamplesLog), the file is rewritten
// whole only by resume, evaluate, merge and shard splits (write_samples_file), and read back as
// typed records (read_records) with jsonl_file.h's one rule for a torn last line.
#pragma once

#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "src/results/record.h"

namespace pkb::results {

using SampleId = std::pair<std::string, int>;      // problem key, sample index
using TurnId = std::tuple<std::string, int, int>;  // problem key, sample index, turn

struct RecordLine {
  int number = 0;    // 1-based line number in the file
  std::string text;  // as written, without the newline (merge and resume copy it unchanged)
  Record record;
};

struct RecordsFile {
  std::vector<RecordLine> lines;
  std::optional<int> torn_line;        // a last line cut by a crash: left out
  bool missing_final_newline = false;  // an appender must rewrite the file first
};

/// Reads every record of `path` (a missing file has none); `name` is how messages call the file.
/// Throws InputError "NAME:LINE: ..." for a corrupt line or a bad record (record_from_json).
RecordsFile read_records(const std::filesystem::path& path, const std::string& name);

struct ResumeState {
  std::set<SampleId> finished;  // samples whose last turn has a model answer and ends them
  /// Samples whose conversation goes on (`pkb run --turns`): their kept records, oldest turn
  /// first, the last one naming the feedback for the next turn.
  std::map<SampleId, std::vector<Record>> unfinished;
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

/// One line of the file: the record as JSON, then '\n'.
std::string record_line(const Record& record);

class SamplesLog {
 public:
  explicit SamplesLog(std::filesystem::path path) : path_(std::move(path)) {}
  void append(const Record& record);  // thread-safe; one durable line

 private:
  std::filesystem::path path_;
  std::mutex mutex_;
};

}  // namespace pkb::results
