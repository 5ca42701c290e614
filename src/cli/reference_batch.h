// `pkb reference --batch FILE`: many reference dumps in one process, for scripts/parity.py, which
// otherwise pays pkb's start (about 0.7 s of loading libtorch) once per problem, dtype and W.
#pragma once

#include <string>

#include <c10/core/Device.h>

#include "src/cli/command.h"

namespace pkb::cli {

/// FILE ("-" for stdin) holds one JSON object per line: {"index", "problem", "world", "dtype",
/// "dims" (test), "dump" (none: only run it), "device" (cpu or cuda)}. Each job's result is one
/// JSON line on stdout, flushed at once: {"index": i, "ok": true, "seconds": s} or
/// {"index": i, "ok": false, "error": "..."}. scripts/gpu-check.sh runs every reference on the GPU
/// at bench dims this way. A failing job does not
/// stop the others. Returns 0 when every job succeeded, else 1; a malformed line is an InputError.
int run_reference_batch(const std::string& file, const GlobalOptions& global);

/// --device (and a batch job's "device"): cpu, or cuda (GPU 0; a UsageError where libtorch has no
/// CUDA or sees no GPU).
c10::Device parse_device(const std::string& text);

}  // namespace pkb::cli
