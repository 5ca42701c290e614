// Several results directories scored as one: allowed when their settings (run.json fingerprint and
// hardware_key) are equal, as for shards or resumed halves of one run; refused otherwise.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/results/results_dir.h"

namespace pkb::score {

/// A record tagged with the run it belongs to: records of runs with different settings
/// (--allow-mixed) are distinct samples even when their (problem, sample) are equal. The source is
/// the index of the first input with the same settings, so shards of one run share it.
struct PooledRecord {
  const results::ScoredSample* record;
  int source;
};

struct Pool {
  std::vector<std::string> inputs;                  // the directories, as named
  std::vector<int> input_sources;                   // per input: its records' source
  nlohmann::json fingerprint;                       // the first directory's
  std::string hardware_key;                         // the first directory's ("" when absent)
  bool mixed = false;                               // settings differed (--allow-mixed)
  std::vector<PooledRecord> records;
  std::vector<std::string> problems;                // union of run.json problem lists, in order
  std::map<std::string, std::string> categories;    // problem -> category
  std::vector<results::SkippedRecord> skipped;
};

/// Merges `dirs` (which must outlive the pool). Throws InputError naming the field and both values
/// when settings differ and `allow_mixed` is false, and naming both locations for a record that
/// appears twice among runs of equal settings.
Pool merge_dirs(const std::vector<results::ResultsDir>& dirs, bool allow_mixed);

}  // namespace pkb::score
