// `pkb run`'s flags turned into the pipeline's settings (src/run/run_pipeline.h): the model client,
// the problems with their prompts, the fingerprint that --resume and pkb score compare, the
// evaluation settings and the turn policy.
#pragma once

#include <memory>

#include "src/cli/run_eval_flags.h"
#include "src/cli/run_options.h"
#include "src/cli/turn_flags.h"
#include "src/run/run_pipeline.h"

namespace pkb::cli {

struct PreparedRun {
  PreparedGeneration generation;  // owns the client and the problem specs config points into
  run::RunConfig config;
};

/// Checks every flag and loads what the run needs; writes nothing. Without --out, picks
/// results/<model>-<YYYYMMDD>-<6 hex> (and sets flags.out to it). Throws pkb::UsageError naming
/// the flag.
PreparedRun prepare_run(const GlobalOptions& global, ModelFlags& flags, const EvalFlags& eval_flags,
                        const TurnFlags& turn_flags);

}  // namespace pkb::cli
