// Reduce-scatter then RMSNorm: x = P(sum over ranks of chunk r of rs_input / W) as (rows, hid);
// y = P(x * rsqrt(mean(x^2, row) + eps) * gamma), the norm in fp32.
// Shapes: problems/045_reducescatter_fused_rmsnorm/problem.json.
#include <ATen/CPUGeneratorImpl.h>

#include "reference/registry.h"

namespace pkb::ref::p045 {
namespace {

constexpr int kProblemId = 45;

// gamma is shared (rank 0's seed for the trial); rs_input is standard normal and different on
// every rank, so a rank that skips the reduce-scatter normalises its own chunk instead of the mean.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t world = ctx.world();
  const std::int64_t hid = std::max<std::int64_t>(32, std::min<std::int64_t>(ctx.dim("N"), 128));
  const std::int64_t rows =
      std::max<std::int64_t>(2, std::max(ctx.dim("M"), world) / std::max<std::int64_t>(world, 4));
  at::Generator shared = at::detail::createCPUGenerator(input_seed(kProblemId, 0, ctx.trial()));
  const at::Tensor gamma = at::randn({hid}, shared, at::TensorOptions().dtype(at::kFloat));
  return {{"gamma", ctx.place(gamma, ctx.dtype())}, {"rs_input", ctx.randn({world * rows * hid})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& gamma = in.at("gamma");
  const at::Tensor& rs_input = in.at("rs_input");
  // fp32 norm (fp64 in the checker's fp64 rerun).
  const at::ScalarType acc = at::promote_types(rs_input.scalar_type(), at::kFloat);

  at::Tensor chunk = at::empty({rs_input.numel() / comm.size()}, rs_input.options());
  comm.reduce_scatter(chunk, rs_input, ReduceOp::sum);
  // The mean is rounded to P before the fp32 norm.
  const at::Tensor x = (chunk / comm.size()).view({-1, gamma.numel()}).to(acc);
  const at::Tensor normed = x * at::rsqrt(x.pow(2).mean(-1, /*keepdim=*/true) + scalars.at("eps"));
  return {{"y", (normed * gamma.to(acc)).to(rs_input.scalar_type())}};
}

}  // namespace

PKB_REGISTER_REFERENCE("045_reducescatter_fused_rmsnorm", make_inputs, solve);

}  // namespace pkb::ref::p045
