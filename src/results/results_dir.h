// A results directory read back for scoring: run.json and every record of samples.jsonl, with the
// records that could not be read counted and located rather than dropped.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "src/results/run_info.h"
#include "src/results/scored_sample.h"

namespace pkb::results {

struct SkippedRecord {
  std::string where;   // "DIR/samples.jsonl:LINE"
  std::string reason;  // one line
};

struct ResultsDir {
  std::filesystem::path dir;
  std::string name;         // dir as given, for messages
  RunInfo run;              // run.json
  std::vector<ScoredSample> samples;
  std::vector<SkippedRecord> skipped;               // a torn last line
};

/// True when `dir` holds run.json and samples.jsonl.
bool is_results_dir(const std::filesystem::path& dir);

/// Reads and validates `dir`. Throws InputError naming the file (and line) on a missing or bad
/// run.json, a corrupt or duplicate record, or a schema newer than kMaxSchemaVersion. A torn last
/// line (no final newline, not valid JSON: a writer killed mid-line) is skipped and listed.
ResultsDir load_results_dir(const std::filesystem::path& dir);

/// Every results directory under `root` (root included), sorted by path; results dirs are not
/// searched further, so a run's own folders are never mistaken for runs.
std::vector<std::filesystem::path> find_results_dirs(const std::filesystem::path& root);

}  // namespace pkb::results
