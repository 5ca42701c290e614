// The running half of evaluate(): write the cubin, PTX and plan for a worker child (pkb-worker on
// the GPUs, pkb-sim-worker on the simulated node), run it with a deadline, and fold its result
// (or its death) into the outcome.
#pragma once

#include "src/eval/eval.h"

namespace pkb::eval {

void run_on_device(const Candidate& candidate, const EvalRequest& request, const Target& target,
                   EvalOutcome& outcome);

}  // namespace pkb::eval
