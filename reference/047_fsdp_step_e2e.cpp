// One FSDP step: theta = all_gather(shards) -> (W1, b1, W2, b2); o = P(relu(P(X W1^T + b1)) W2^T
// + b2); loss = mean((o - y)^2) with its backward written out; the flat gradient is
// reduce-scattered (sum in P) and averaged; AdamW with decoupled decay on this rank's shard.
// Shapes, scalars, rounding points: problems/047_fsdp_step_e2e/problem.json (and reference.py).
#include <ATen/CPUGeneratorImpl.h>

#include "reference/adam_rounded.h"
#include "reference/matmul_p.h"
#include "reference/registry.h"

namespace pkb::ref::p047 {
namespace {

constexpr int kProblemId = 47;

// Shared seed (rank 0's generator for the trial): every rank draws the same data and parameters
// and keeps its rows and its slice of the flat parameters. Upstream built the shards from each
// rank's own parameters (zeros off rank 0), which zeroed W2, b2 and most gradients; slicing the
// shared parameters makes every gradient and moment nonzero, so a skipped gather or
// reduce-scatter shows.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t world = ctx.world();
  const std::int64_t chunk = (std::max<std::int64_t>(ctx.dim("M"), world) + world - 1) / world;
  const std::int64_t d_in = ctx.dim("d_in"), hid = ctx.dim("hid"), d_out = ctx.dim("d_out");
  at::Generator shared = at::detail::createCPUGenerator(input_seed(kProblemId, 0, ctx.trial()));
  const auto fp32 = at::TensorOptions().dtype(at::kFloat);
  const at::Tensor x = at::randn({world * chunk, d_in}, shared, fp32);
  const at::Tensor y = at::randn({world * chunk, d_out}, shared, fp32);
  const at::Tensor flat =
      at::cat({at::randn({hid * d_in}, shared, fp32), at::randn({hid}, shared, fp32),
               at::randn({d_out * hid}, shared, fp32), at::randn({d_out}, shared, fp32)});
  const std::int64_t part = flat.numel() / world;
  const std::int64_t row = ctx.rank() * chunk, start = ctx.rank() * part;
  return {{"X_local", ctx.place(x.slice(0, row, row + chunk), ctx.dtype())},
          {"y_local", ctx.place(y.slice(0, row, row + chunk), ctx.dtype())},
          {"flat_param_shard", ctx.place(flat.slice(0, start, start + part), ctx.dtype())},
          {"exp_avg_shard", ctx.place(at::zeros({part}, fp32), ctx.dtype())},
          {"exp_avg_sq_shard", ctx.place(at::zeros({part}, fp32), ctx.dtype())}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& x = in.at("X_local");
  const at::Tensor& y = in.at("y_local");
  const at::Tensor& shard = in.at("flat_param_shard");
  const at::ScalarType dtype = shard.scalar_type();
  // Element-wise ops compute in fp32 (fp64 in the checker's fp64 rerun) and round once to P.
  const at::ScalarType acc = at::promote_types(dtype, at::kFloat);
  const auto up = [&](const at::Tensor& t) { return t.to(acc); };
  const std::int64_t chunk = x.size(0), d_in = x.size(1), d_out = y.size(1);
  const std::int64_t total = comm.size() * shard.numel();
  const std::int64_t hid = (total - d_out) / (d_in + 1 + d_out);

  at::Tensor flat = at::empty({total}, shard.options());
  comm.all_gather(flat, shard);
  const auto parts = flat.split_with_sizes({hid * d_in, hid, d_out * hid, d_out});
  const at::Tensor w1 = parts[0].view({hid, d_in}), b1 = parts[1];
  const at::Tensor w2 = parts[2].view({d_out, hid}), b2 = parts[3];

  // Linear layers round once with the bias fused.
  const at::Tensor pre = (at::matmul(up(x), up(w1).t()) + up(b1)).to(dtype);
  const at::Tensor h = at::where(pre > 0, pre, at::zeros_like(pre));
  const at::Tensor o = (at::matmul(up(h), up(w2).t()) + up(b2)).to(dtype);
  const at::Tensor diff = (up(o) - up(y)).to(dtype);
  const at::Tensor d_o = (up(diff) * (2.0 / static_cast<double>(chunk * d_out))).to(dtype);
  const at::Tensor g_w2 = matmul_p(d_o.t(), h);
  const at::Tensor g_b2 = up(d_o).sum(0).to(dtype);
  const at::Tensor d_h = matmul_p(d_o, w2);
  const at::Tensor d_pre = at::where(pre > 0, d_h, at::zeros_like(d_h));
  const at::Tensor g_w1 = matmul_p(d_pre.t(), x);
  const at::Tensor g_b1 = up(d_pre).sum(0).to(dtype);

  const at::Tensor flat_grad = at::cat({g_w1.reshape({-1}), g_b1, g_w2.reshape({-1}), g_b2});
  at::Tensor g_sum = at::empty_like(shard);
  comm.reduce_scatter(g_sum, flat_grad, ReduceOp::sum);
  const at::Tensor grad = (up(g_sum) / comm.size()).to(dtype);

  const double lr = scalars.at("lr"), wd = scalars.at("weight_decay");
  const AdamRounded adam =
      adam_rounded(grad, in.at("exp_avg_shard"), in.at("exp_avg_sq_shard"), scalars);
  const at::Tensor theta0 = up(shard);
  at::Tensor theta = (theta0 + (-lr) * up(adam.direction)).to(dtype);
  theta = (up(theta) + (-lr * wd) * theta0).to(dtype);  // decoupled decay of the pre-update shard
  return {{"theta", theta}, {"exp_avg", adam.exp_avg}, {"exp_avg_sq", adam.exp_avg_sq}};
}

}  // namespace

PKB_REGISTER_REFERENCE("047_fsdp_step_e2e", make_inputs, solve);

}  // namespace pkb::ref::p047
