// Shared by problems 040-042 (DDP, ZeRO-1, ZeRO-2): the two-layer MLP's inputs, its backward
// pass written out (no autograd), the Adam step and the flat [w1 | b1 | w2 | b2] vector's
// broadcast, ZeRO partition step and outputs, with the rounding points the problems' reference.py files fix: every GEMM
// and bias add rounds once to P, every element-wise op rounds to P.
#pragma once

#include <array>
#include <string>

#include <ATen/ATen.h>

#include "reference/comm/comm.h"
#include "reference/inputs.h"
#include "reference/tensors.h"

namespace pkb::ref::mlp_adam {

/// The parameters, in the order of the flat vector [w1 | b1 | w2 | b2].
inline const char* const kParamNames[] = {"w1", "b1", "w2", "b2"};

/// A generator seeded as rank 0's: every rank draws the same stream (a seed all ranks share).
at::Generator shared_generator(const InputContext& ctx);

/// An fp32 standard-normal draw of `shape` from `gen`.
at::Tensor draw_randn(at::Generator& gen, at::IntArrayRef shape);

/// This rank's rows of the shared X [M, D_IN] and y [M, D_OUT], then the parameters (drawn on
/// every rank, kept only on rank 0: the others hold zeros until the broadcast), as fp32.
Tensors draw_data_and_params(InputContext& ctx, at::Generator& gen);

/// Inputs of the ZeRO problems (041, 042): the data and parameters above in P, and this rank's
/// partition of shared random Adam moments (normal first, uniform [0, 1) second moments) over
/// the flat [w1 | b1 | w2 | b2] vector, which W must divide.
Tensors draw_zero_inputs(InputContext& ctx);

/// Rank 0's values of the four inputs `prefix + name`, as one flat buffer on every rank.
at::Tensor broadcast_flat(Comm& comm, const Tensors& in, const std::string& prefix);

/// The flat gradient [w1 | b1 | w2 | b2] in P of this rank's loss mean((o - y)^2) at the flat
/// parameters `params`, where o = P(relu(P(X_local w1^T + b1)) w2^T + b2); relu'(0) = 0.
at::Tensor local_flat_grad(const at::Tensor& params, const Tensors& in);

/// One Adam step (no weight decay) on new tensors, op by op in P: returns {param, m, v}.
std::array<at::Tensor, 3> adam(const at::Tensor& param, const at::Tensor& grad,
                               const at::Tensor& exp_avg, const at::Tensor& exp_avg_sq,
                               const Scalars& s);

/// Sets the outputs `prefix + name + "_new"` to copies of `flat` cut in the inputs' shapes.
void set_unflattened(Tensors& out, const std::string& prefix, const at::Tensor& flat,
                     const Tensors& in);

/// The end of a ZeRO step (041, 042): Adam on this rank's partition of `params` with its
/// averaged gradient partition and the inputs' partition moments, then the all-gather of the new
/// partitions. Returns w1_new .. b2_new, exp_avg_part_new and exp_avg_sq_part_new.
Tensors zero_adam_all_gather(Comm& comm, const Tensors& in, const Scalars& scalars,
                             const at::Tensor& params, const at::Tensor& grad_part);

}  // namespace pkb::ref::mlp_adam
