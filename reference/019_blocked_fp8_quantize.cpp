// Blocked fp8 quantization: x[M, N] splits into row-major blocks of 128; block b gets
// s_b = max|x| / 448 and codes e4m3(x / s_b) (s_b = 0 divides by 1); every rank returns all
// ranks' codes and scales, concatenated along rows. Shapes:
// problems/019_blocked_fp8_quantize/problem.json.
#include "reference/fp8.h"
#include "reference/registry.h"

namespace pkb::ref::p019 {
namespace {

constexpr double kE4m3Max = 448;

// Standard normal and different on every rank, so a skipped gather leaves other ranks' rows
// wrong; every block has its own maximum, so the scales differ too.
Tensors make_inputs(InputContext& ctx) { return {{"x", ctx.randn({ctx.dim("M"), ctx.dim("N")})}}; }

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& x = in.at("x");
  const std::int64_t rows = x.size(0);
  const std::int64_t cols = x.size(1);
  const std::int64_t block = scalars.integer("block");

  // fp32 in every run, the fp64 one included (x is exact in fp32): the codes compare exactly.
  const at::Tensor blocks = x.to(at::kFloat).reshape({rows, cols / block, block});
  const at::Tensor amax = blocks.abs().amax(-1);
  // Divide by tensors: CUDA turns division by a scalar into a multiply by its reciprocal, which
  // rounds differently.
  const at::Tensor scale = amax / at::full_like(amax, kE4m3Max);
  const at::Tensor divisor = at::where(scale == 0, at::ones_like(scale), scale);
  const at::Tensor codes = to_e4m3(blocks / divisor.unsqueeze(-1)).reshape({rows, cols});

  at::Tensor y_glob = at::empty({comm.size() * rows, cols}, codes.options());
  comm.all_gather(y_glob, codes);
  at::Tensor s_glob = at::empty({comm.size() * rows, cols / block}, scale.options());
  comm.all_gather(s_glob, scale.contiguous());
  return {{"y_glob", y_glob}, {"s_glob", s_glob}};
}

}  // namespace

PKB_REGISTER_REFERENCE("019_blocked_fp8_quantize", make_inputs, solve);

}  // namespace pkb::ref::p019
