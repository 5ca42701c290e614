// run.json's `summary` of a run, an evaluation or a merge (docs/RESULTS.md): counts over every
// record of samples.jsonl, an earlier process's included.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "src/results/record.h"

namespace pkb::results {

struct RecordsSummary {
  int total = 0;                                     // records: one per turn
  int samples = 0;                                   // distinct (problem, sample)
  std::map<std::string, int> by_status;              // records per status
  std::int64_t input_tokens = 0, output_tokens = 0;  // where the provider reported them

  int count(const std::string& status) const;
  /// "correct 3, compile_error 1" in status-name order, or "none".
  std::string status_text() const;
};

/// The summary of `samples` (a samples.jsonl; torn last line left out).
RecordsSummary summarize_records(const std::filesystem::path& samples);

/// {total, samples, by_status, input_tokens, output_tokens}.
nlohmann::json to_json(const RecordsSummary& summary);

}  // namespace pkb::results
