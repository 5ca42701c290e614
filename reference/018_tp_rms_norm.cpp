// Tensor-parallel RMSNorm: rank r holds h_r[M, N], a column slice of a hidden dimension of size
// N*W, and returns out = w_r * P(h_r * rsqrt(ss / (N*W) + eps)), where ss[i] is the fp32 sum over
// ranks and columns of h[i, :]^2. Shapes and tolerances: problems/018_tp_rms_norm/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p018 {
namespace {

// Standard normal and different on every rank: a rank that skips the all-reduce normalizes by
// its own N columns only, so its scale is off by about sqrt(W).
Tensors make_inputs(InputContext& ctx) {
  at::Tensor h = ctx.randn({ctx.dim("M"), ctx.dim("N")});
  at::Tensor w = ctx.randn({ctx.dim("N")});
  return {{"h", h}, {"w", w}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& h = in.at("h");
  const at::Tensor& w = in.at("w");
  // fp32 statistics (fp64 when the checker reruns the reference in fp64).
  const at::ScalarType stats_type = at::promote_types(h.scalar_type(), at::kFloat);
  const double hidden_size = static_cast<double>(h.size(-1)) * comm.size();

  const at::Tensor h32 = h.to(stats_type);
  at::Tensor sum_sq = h32.pow(2).sum(-1, /*keepdim=*/true).contiguous();
  comm.all_reduce(sum_sq, ReduceOp::sum);
  const at::Tensor normed = h32 * at::rsqrt(sum_sq / hidden_size + scalars.at("eps"));
  return {{"out", w * normed.to(h.scalar_type())}};
}

}  // namespace

PKB_REGISTER_REFERENCE("018_tp_rms_norm", make_inputs, solve);

}  // namespace pkb::ref::p018
