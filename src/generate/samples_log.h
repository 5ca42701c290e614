// samples.jsonl of a generation: one JSON object per sample, appended and flushed one line at a
// time (DESIGN.md §6), and read back by --resume.
#pragma once

#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>

namespace pkb::generate {

using SampleId = std::pair<std::string, int>;  // problem key, sample index

struct ResumeState {
  std::set<SampleId> finished;  // samples with a model answer (generated or format_error)
  int dropped_torn = 0;         // a last line cut by a crash
  int dropped_failed = 0;       // api_error records, asked again
};

/// Reads `path` for --resume and rewrites it (atomically) without the records that will be asked
/// again, so each sample ends up in the file exactly once. A missing file is an empty run.
ResumeState prepare_resume(const std::filesystem::path& path);

class SamplesLog {
 public:
  explicit SamplesLog(std::filesystem::path path) : path_(std::move(path)) {}
  void append(const nlohmann::json& record);  // thread-safe; one durable line

 private:
  std::filesystem::path path_;
  std::mutex mutex_;
};

}  // namespace pkb::generate
