// ZeRO-2 step of a two-layer ReLU MLP: broadcast rank 0's flat parameters [w1 | b1 | w2 | b2],
// local forward and backward, reduce-scatter SUM of the flat gradient into this rank's partition
// [r*T/W, (r+1)*T/W) then / W, Adam there with partition-local moments, all-gather the partitions.
// Shapes, scalars and tolerances: problems/042_zero2_optimizer_shard_grad/problem.json;
// the math: reference/mlp_adam.h.
#include "reference/mlp_adam.h"
#include "reference/registry.h"

namespace pkb::ref::p042 {
namespace {

// A rank that skips the reduce-scatter steps on a slice of its own gradient; with the shared
// draws of mlp_adam.h, one that skips the broadcast trains zeros and a skipped all-gather leaves
// the other partitions stale.
Tensors make_inputs(InputContext& ctx) { return mlp_adam::draw_zero_inputs(ctx); }

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor params = mlp_adam::broadcast_flat(comm, in, "");
  const std::int64_t world = comm.size(), part = params.numel() / world;

  // ZeRO-2: each rank receives only its partition of the summed gradient.
  const at::Tensor grad = mlp_adam::local_flat_grad(params, in);
  at::Tensor grad_part = at::empty({part}, grad.options());
  comm.reduce_scatter(grad_part, grad, ReduceOp::sum);
  grad_part = grad_part / static_cast<double>(world);
  return mlp_adam::zero_adam_all_gather(comm, in, scalars, params, grad_part);
}

}  // namespace

PKB_REGISTER_REFERENCE("042_zero2_optimizer_shard_grad", make_inputs, solve);

}  // namespace pkb::ref::p042
