// ZeRO-1 step of a two-layer ReLU MLP: broadcast rank 0's flat parameters [w1 | b1 | w2 | b2],
// local forward and backward, all-reduce SUM of the flat gradient then / W, Adam on this rank's
// partition [r*T/W, (r+1)*T/W) with partition-local moments, all-gather of the new partitions.
// Shapes, scalars and tolerances: problems/041_zero1_optimizer_shard/problem.json;
// the math: reference/mlp_adam.h.
#include "reference/mlp_adam.h"
#include "reference/registry.h"

namespace pkb::ref::p041 {
namespace {

// A rank that skips the all-reduce steps on its own gradient; with the shared draws of
// mlp_adam.h, one that skips the broadcast trains zeros and a skipped all-gather leaves the other
// partitions stale.
Tensors make_inputs(InputContext& ctx) { return mlp_adam::draw_zero_inputs(ctx); }

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor params = mlp_adam::broadcast_flat(comm, in, "");
  const std::int64_t world = comm.size(), part = params.numel() / world;

  // ZeRO-1: the full averaged gradient exists on every rank; only its partition is used.
  at::Tensor grad = mlp_adam::local_flat_grad(params, in);
  comm.all_reduce(grad, ReduceOp::sum);
  const at::Tensor grad_part =
      (grad / static_cast<double>(world)).narrow(0, comm.rank() * part, part);
  return mlp_adam::zero_adam_all_gather(comm, in, scalars, params, grad_part);
}

}  // namespace

PKB_REGISTER_REFERENCE("041_zero1_optimizer_shard", make_inputs, solve);

}  // namespace pkb::ref::p041
