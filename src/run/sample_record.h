// The final record of one sample (docs/RESULTS.md, schema_version 2): the generation record with
// the evaluation fields added. It is written once, when the sample's status is final.
#pragma once

#include <filesystem>
#include <string>

#include "src/eval/eval.h"
#include "src/results/record.h"

namespace pkb::run {

/// A sample that never reached the compiler (api_error, format_error): its generation record
/// with null evaluation fields.
results::Record unevaluated_record(results::Record generation, const std::string& category);

/// A sample that was evaluated. `arch`: the NVRTC target; `no_gpu_reason` for status compiled.
/// Writes the compile log and the worker's log to logs/PROBLEM/sample_K.txt under `out`.
results::Record evaluated_record(results::Record generation, const std::string& category,
                                 const eval::EvalOutcome& outcome, const std::string& arch,
                                 const std::string& no_gpu_reason,
                                 const std::filesystem::path& out);

/// The generation part of any record: a schema-1 record as it is; a schema-2 one without its
/// evaluation fields and message, its status back to "generated" unless the sample failed before
/// evaluation (api_error, format_error).
results::Record generation_record(results::Record record);

}  // namespace pkb::run
