// One line of samples.jsonl as `pkb score` needs it (docs/RESULTS.md): which problem and
// sample, the status, and what scoring reads from the timing. Everything else in the line is ignored.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/results/schema.h"

namespace pkb::results {

struct SampleRecord {
  std::string problem;
  std::string category;  // empty when the line has none (schema 1); run.json may know it
  int sample = 0;
  int turn = 0;
  std::string status;  // a SampleStatus name, or "generated" (schema 1: answered, not evaluated)
  std::optional<double> speedup;  // correct and timed
  bool emulated = false;          // timing.emulated
  bool flagged = false;           // timing.sol_flag or suspicious_fast: kept out of fast_p
  std::optional<double> sol_fraction;  // speed-of-light floor / candidate median (issue 10)
  std::optional<double> output_tokens;  // usage.output_tokens
  std::optional<double> latency_s;
  std::string file;  // where it came from, for messages: "DIR/samples.jsonl"
  int line = 0;
  std::string text;  // the line as written (pkb merge copies it unchanged)
};

/// The statuses a record may carry: every SampleStatus, in pipeline order, then "generated".
const std::vector<std::string>& known_statuses();

/// Reads one parsed line; throws InputError "FILE:LINE: FIELD: expected ..., got ..." on a bad one.
SampleRecord parse_sample_record(const nlohmann::json& line, const std::string& file, int line_no);

/// Throws InputError "WHERE: schema_version N is newer than this pkb understands (max 2)" (or a
/// missing / non-integer version).
void check_schema_version(const nlohmann::json& doc, const std::string& where);

}  // namespace pkb::results
