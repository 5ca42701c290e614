// ZeRO-2 step of a two-layer ReLU MLP: broadcast rank 0's flat parameters [w1 | b1 | w2 | b2],
// local forward and backward, reduce-scatter SUM of the flat gradient into this rank's partition
// [r*T/W, (r+1)*T/W) then / W, Adam there with partition-local moments, all-gather the partitions.
// Shapes, scalars and tolerances: problems/042_zero2_optimizer_shard_grad/problem.json; the math: reference/mlp_adam.h.
#include "reference/mlp_adam.h"
#include "reference/registry.h"

namespace pkb::ref {
namespace {

// Shared seed: data rows are slices of one matrix, the parameters are rank 0's (zeros elsewhere)
// and the moments are partitions of one random vector, so a rank that skips the broadcast trains
// zeros, one that skips the reduce-scatter steps on a slice of its own gradient, and a skipped all-gather leaves the other partitions stale.
Tensors make_inputs(InputContext& ctx) { return mlp_adam::draw_zero_inputs(ctx); }

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  std::vector<at::Tensor> pieces;
  for (const char* name : mlp_adam::kParamNames) pieces.push_back(in.at(name).reshape(-1));
  at::Tensor flat = at::cat(pieces);
  comm.broadcast(flat, 0);
  const std::vector<at::Tensor> p = mlp_adam::unflatten(flat, in);
  const std::int64_t world = comm.size(), part = flat.numel() / world, start = comm.rank() * part;

  // ZeRO-2: each rank receives only its partition of the summed gradient.
  const at::Tensor grad =
      mlp_adam::flat_grad(in.at("X_local"), in.at("y_local"), p[0], p[1], p[2], p[3]);
  at::Tensor grad_part = at::empty({part}, grad.options());
  comm.reduce_scatter(grad_part, grad, ReduceOp::sum);
  grad_part = grad_part / static_cast<double>(world);

  const auto [new_part, m, v] = mlp_adam::adam(flat.narrow(0, start, part), grad_part,
                                               in.at("exp_avg_part"), in.at("exp_avg_sq_part"),
                                               scalars);
  at::Tensor new_flat = at::empty_like(flat);
  comm.all_gather(new_flat, new_part.contiguous());
  const std::vector<at::Tensor> new_params = mlp_adam::unflatten(new_flat, in);
  Tensors out;
  for (std::size_t i = 0; i < new_params.size(); ++i)
    out.set(std::string(mlp_adam::kParamNames[i]) + "_new", new_params[i]);
  out.set("exp_avg_part_new", m);
  out.set("exp_avg_sq_part_new", v);
  return out;
}

}  // namespace

PKB_REGISTER_REFERENCE("042_zero2_optimizer_shard_grad", make_inputs, solve);

}  // namespace pkb::ref
