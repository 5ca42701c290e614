// The GPU half of evaluate(): write the cubin, PTX and plan for a pkb-worker child, run it with
// a deadline, and fold its result (or its death) into the outcome.
#pragma once

#include "src/eval/eval.h"

namespace pkb::eval {

void run_on_gpu(const Candidate& candidate, const EvalRequest& request, const Target& target, EvalOutcome& outcome);

}  // namespace pkb::eval
