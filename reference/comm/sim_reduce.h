// How the simulated world combines the contributions of a reduction, in each SimMode.
#pragma once

#include <vector>

#include <ATen/ATen.h>

#include "reference/comm/comm.h"
#include "reference/comm/sim_world.h"

namespace pkb::ref {

/// Combines `parts` (one per member, in rank order, same shape and dtype) into a new tensor of
/// that dtype. Floating sums accumulate in fp32 (fp64 for fp64 tensors) and round once, except
/// in hop_rounded mode; integer sums are exact; max and min are exact in every mode.
at::Tensor combine(const std::vector<at::Tensor>& parts, ReduceOp op, SimMode mode);

}  // namespace pkb::ref
