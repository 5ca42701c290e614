// Details of a candidate that failed while running (runtime_error) or did not finish (timeout):
// the worker's one-line message, with the rank, kernel or step, CUDA error and stage pulled out
// onto lines of their own when the message names them.
#pragma once

#include <string>

#include "src/results/record.h"

namespace pkb::feedback {

/// `record`: a runtime_error or timeout record. Reads only `message` and `eval.stage`.
std::string run_failure_details(const results::Record& record);

}  // namespace pkb::feedback
