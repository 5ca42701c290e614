// The speed-of-light judgement of a correct, timed candidate (issue 10), computed here in the
// parent from the worker's timing, never in the worker: the floor comes from the problem's "sol"
// entry and the hardware profile that names the GPU the worker ran on (src/sol).
#pragma once

#include "src/eval/eval.h"

namespace pkb::eval {

/// Sets outcome.sol (and a warning when suspicious_fast), or outcome.sol_note saying why not.
void judge_speed_of_light(const EvalRequest& request, EvalOutcome& outcome);

}  // namespace pkb::eval
