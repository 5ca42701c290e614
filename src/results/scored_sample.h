// What `pkb score` reads of one record (docs/RESULTS.md): which problem and sample, the status,
// and what scoring needs of the timing, with where the line came from for messages.
#pragma once

#include <optional>
#include <string>

#include "src/results/record.h"

namespace pkb::results {

struct ScoredSample {
  std::string problem;
  std::string category;  // empty when the record has none (schema 1); run.json may know it
  int sample = 0;
  int turn = 0;
  std::string status;  // a SampleStatus name, or "generated" (schema 1: answered, not evaluated)
  std::optional<double> speedup;        // correct and timed
  bool emulated = false;                // timing.emulated
  bool simulated = false;               // judged by the simulated node (eval.judged_by "sim")
  bool flagged = false;                 // suspicious_fast, or an older record's timing.sol_flag
  std::optional<double> sol_fraction;   // speed-of-light floor / candidate median
  std::optional<double> output_tokens;  // usage.output_tokens
  std::optional<double> latency_s;
  std::string file;  // where it came from, for messages: "DIR/samples.jsonl"
  int line = 0;
  std::string text;  // the line as written (pkb merge copies it unchanged)
};

/// The scoring view of `record`, read from line `line` of `file`, whose text was `text`.
ScoredSample scored_sample(const Record& record, const std::string& file, int line,
                           std::string text);

}  // namespace pkb::results
