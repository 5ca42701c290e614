// The correctness rule applied to a whole call: every output of every rank against the fp64
// reference, with the reference's own error in P as the yardstick. `pkb validate` and the GPU
// executor (harness/executor/trial.cpp) both call it, so they judge alike.
#pragma once

#include <vector>

#include "reference/tensors.h"
#include "src/check/compare.h"
#include "src/problem/spec.h"

namespace pkb::check {

/// The verdicts of every output of every rank, failures first.
std::vector<TensorVerdict> check_all_ranks(const problem::ProblemSpec& spec, const std::vector<ref::Tensors>& got,
                                           const std::vector<ref::Tensors>& expected_fp64,
                                           const std::vector<ref::Tensors>& reference_in_dtype, DType dtype);

}  // namespace pkb::check
