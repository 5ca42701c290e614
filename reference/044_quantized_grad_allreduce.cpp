// Quantized gradient all-reduce: per block of block_size elements, scale = max(absmax, 1e-8)/127,
// q = clamp(rint(x / scale), -127, 127) (int8), d = q * scale, all in fp32; out = P(sum over
// ranks of d / W), summed in fp32. Shapes: problems/044_quantized_grad_allreduce/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p044 {
namespace {

// Standard normal and different on every rank: a rank that skips the all-reduce returns its own
// dequantized gradient divided by W, far from the average.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t n =
      std::max(ctx.dim("M") * ctx.dim("N"), 64 * static_cast<std::int64_t>(ctx.world()));
  return {{"flat_grad", ctx.randn({n})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& grad = in.at("flat_grad");
  const std::int64_t block = scalars.integer("block_size");
  const std::int64_t n = grad.numel();
  // fp32 throughout (fp64 in the checker's fp64 rerun); the amax of P values is exact in fp32.
  const at::ScalarType acc = at::promote_types(grad.scalar_type(), at::kFloat);

  const at::Tensor blocks =
      at::constant_pad_nd(grad.to(acc), {0, (block - n % block) % block}, 0).view({-1, block});
  // Tensor divisors: a GPU divides by a host scalar as a multiply by its reciprocal.
  const at::Tensor levels = at::full({}, 127.0, blocks.options());
  const at::Tensor scale = blocks.abs().amax({1}, /*keepdim=*/true).clamp_min(1e-8) / levels;
  const at::Tensor q = at::clamp(at::round(blocks / scale), -127, 127).to(at::kChar);
  at::Tensor dequantized = (q.to(acc) * scale).reshape({-1}).slice(0, 0, n).contiguous();
  comm.all_reduce(dequantized, ReduceOp::sum);
  const at::Tensor world = at::full({}, static_cast<double>(comm.size()), blocks.options());
  return {{"out", (dequantized / world).to(grad.scalar_type())}};
}

}  // namespace

PKB_REGISTER_REFERENCE("044_quantized_grad_allreduce", make_inputs, solve);

}  // namespace pkb::ref::p044
