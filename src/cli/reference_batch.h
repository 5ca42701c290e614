// `pkb reference --batch FILE`: many reference dumps in one process, for scripts/parity.py, which
// otherwise pays pkb's start (about 0.7 s of loading libtorch) once per problem, dtype and W.
#pragma once

#include <string>

#include "src/cli/command.h"

namespace pkb::cli {

/// FILE ("-" for stdin) holds one JSON object per line: {"index", "problem", "world", "dtype",
/// "dims", "dump"}. Each job's result is one JSON line on stdout, flushed at once:
/// {"index": i, "ok": true} or {"index": i, "ok": false, "error": "..."}. A failing job does not
/// stop the others. Returns 0 when every job succeeded, else 1; a malformed line is an InputError.
int run_reference_batch(const std::string& file, const GlobalOptions& global);

}  // namespace pkb::cli
