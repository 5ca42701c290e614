// How far the machine judged one answer, in words: the verdict line, the details block, the scope
// and why judgement stopped short, for each status a record can end with (docs/RESULTS.md).
#pragma once

#include <string>

#include "src/results/record.h"

namespace pkb::feedback {

struct Judgement {
  std::string status;   // the record's status, e.g. "compile_error"
  std::string verdict;  // one line: the status and what it means
  std::string details;  // lines ending in "\n", or ""
  std::string scope;    // format, compile, plan, run, correctness or timing
  std::string note;     // "" or why judgement stopped short
};

/// Throws pkb::InputError for a record without a known status, and pkb::Error for api_error,
/// which has no answer to give feedback on.
Judgement judge_record(const results::Record& record, const std::string& compile_log);

}  // namespace pkb::feedback
