// Running a reference on W GPUs of this machine, one rank per GPU, over NCCL (pkb reference
// --backend nccl). Needs a libtorch with CUDA and NCCL; otherwise it says which is missing.
#pragma once

#include "reference/runner.h"

namespace pkb::ref {

/// Rank r runs on cuda:r. Throws pkb::UsageError when this build or machine cannot do it.
std::vector<Tensors> solve_nccl(const problem::ProblemSpec& spec, const RunConfig& config,
                                const std::vector<Tensors>& inputs);

}  // namespace pkb::ref
