// 3x3 conv2d over an image split by rows: rank r holds rows r*Hl ... of a global image of height
// W*Hl. Every rank all-gathers every rank's (top, bottom) row pair, pads its rows with rank r-1's
// bottom row and rank r+1's top row (zeros at the image edges), and computes
// y = conv2d(xp, weight_r, bias_r, padding (0, 1)) in fp32, rounded once to P.
// Shapes: problems/087_conv2d_boundary_exchange/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p087 {
namespace {

// Every rank's rows differ, so a skipped all-gather leaves zero halo rows and changes the first and
// last output rows at every interior boundary; weight and bias also differ per rank, as upstream.
// The weight is N(0,1) / sqrt(9*C) (Kaiming-like) so outputs have std ~1.4: a missing bias or a
// skipped halo then exceeds the check's slack, which grows with the output scale.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t channels = ctx.dim("C");
  const std::int64_t rows = std::max<std::int64_t>(
      3, ctx.dim("H") / std::max<std::int64_t>(1, ctx.world() / 2));
  const at::Tensor x = ctx.randn({1, channels, rows, ctx.dim("Wd")});
  const at::Tensor weight = ctx.place(
      at::randn({channels, channels, 3, 3}, ctx.generator()) / std::sqrt(9.0 * double(channels)),
      ctx.dtype());
  const at::Tensor bias = ctx.randn({channels});
  return {{"x", x}, {"weight", weight}, {"bias", bias}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& x = in.at("x");  // [1, C, Hl, Wd]
  const int world = comm.size(), rank = comm.rank();
  const std::int64_t rows = x.size(2);
  // [2, 1, C, Wd]: top row, bottom row.
  const at::Tensor boundary = at::stack({x.select(2, 0), x.select(2, rows - 1)}).contiguous();
  const at::Tensor gathered = at::empty({world, 2, 1, x.size(1), x.size(3)}, x.options());
  comm.all_gather(gathered, boundary);

  const at::Tensor above = rank > 0 ? gathered[rank - 1][1] : at::zeros_like(boundary[1]);
  const at::Tensor below = rank < world - 1 ? gathered[rank + 1][0] : at::zeros_like(boundary[0]);
  const at::Tensor padded = at::cat({above.unsqueeze(2), x, below.unsqueeze(2)}, 2);

  const at::ScalarType compute = at::promote_types(x.scalar_type(), at::kFloat);
  const at::Tensor y = at::conv2d(padded.to(compute), in.at("weight").to(compute),
                                  in.at("bias").to(compute), at::IntArrayRef{1, 1},
                                  at::IntArrayRef{0, 1});
  return {{"y", y.to(x.scalar_type())}};
}

}  // namespace

PKB_REGISTER_REFERENCE("087_conv2d_boundary_exchange", make_inputs, solve);

}  // namespace pkb::ref::p087
