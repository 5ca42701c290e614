// Blocked fp8 dequantization: x = fp32(y) * fp32(s[i / 128]) over the flat index i of y[W, M, N]
// (so chunk w, block b uses s[w, b]), then an all-to-all of the W chunks: out[t] = x_t[r].
// Shapes: problems/020_blocked_fp8_dequantize/problem.json.
#include "reference/fp8.h"
#include "reference/registry.h"

namespace pkb::ref::p020 {
namespace {

// Codes uniform over the 254 finite e4m3 values and standard-normal scales, different on every
// rank and chunk: a skipped exchange leaves every slot but the rank's own wrong, and a wrong
// decode of any code (subnormals, signed zeros, 448) shows.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t world = ctx.world();
  const std::int64_t elements = ctx.dim("M") * ctx.dim("N");
  // 0..253, shifted past the NaN codes 0x7f and 0xff.
  const at::Tensor draw = at::randint(0, 254, {world, ctx.dim("M"), ctx.dim("N")}, ctx.generator(),
                                      at::TensorOptions().dtype(at::kLong));
  const at::Tensor codes = at::where(draw >= 0x7f, draw + 1, draw);
  return {{"y", ctx.place(codes, at::kByte)}, {"s", ctx.randn({world, elements / 128})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& y = in.at("y");
  const std::int64_t block = scalars.integer("block");
  // fp32 in every run, the fp64 one included: the product is what the spec defines.
  const at::Tensor scales = in.at("s").to(at::kFloat).reshape({-1, 1});
  const at::Tensor x = (from_e4m3(y).reshape({-1, block}) * scales).reshape(y.sizes());
  at::Tensor out = at::empty_like(x);
  comm.all_to_all(out, x, {}, {});
  return {{"out", out}};
}

}  // namespace

PKB_REGISTER_REFERENCE("020_blocked_fp8_dequantize", make_inputs, solve);

}  // namespace pkb::ref::p020
