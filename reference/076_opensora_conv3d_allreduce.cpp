// Input-channel-parallel conv3d (Open-Sora): part_r = rnd_P(conv3d(x_r, weight_r)) with fp32
// accumulation; out = rnd_P(all_reduce_sum(part) + bias), the bias added once after the sum.
// Shapes: problems/076_opensora_conv3d_allreduce/problem.json.
#include <cmath>

#include "reference/registry.h"

namespace pkb::ref::p076 {
namespace {

// Every rank's x and kernel slice differ, so a skipped all-reduce returns one rank's partial,
// off by the other ranks' contributions (std about sqrt(27 * Ci * (W-1) / W)). The bias is
// linspace(-1, 1) scaled by the output std sqrt(27 * Ci) (upstream: linspace(-0.1, 0.1)), so
// adding it zero times or W times is visible next to the rounding of outputs of that size.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t local = ctx.dim("Ci") / ctx.world(), out_channels = ctx.dim("Co");
  const at::Tensor x = ctx.randn({1, local, ctx.dim("T"), ctx.dim("H"), ctx.dim("Wd")});
  const at::Tensor weight = ctx.randn({out_channels, local, 3, 3, 3});
  const double scale = std::sqrt(27.0 * static_cast<double>(ctx.dim("Ci")));
  const at::Tensor bias =
      ctx.place(at::linspace(-1.0, 1.0, out_channels, at::kFloat) * scale, ctx.dtype());
  return {{"x", x}, {"weight", weight}, {"bias", bias}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& x = in.at("x");
  const at::ScalarType dtype = x.scalar_type();
  const at::ScalarType compute = at::promote_types(dtype, at::kFloat);
  const at::Tensor part =
      at::conv3d(x.to(compute), in.at("weight").to(compute)).to(dtype).contiguous();
  comm.all_reduce(part, ReduceOp::sum);
  const at::Tensor out = part.to(compute) + in.at("bias").to(compute).view({1, -1, 1, 1, 1});
  return {{"out", out.to(dtype)}};
}

}  // namespace

PKB_REGISTER_REFERENCE("076_opensora_conv3d_allreduce", make_inputs, solve);

}  // namespace pkb::ref::p076
