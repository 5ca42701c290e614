// Hyena causal depthwise conv1d over a zigzag-sharded sequence: rank r holds global chunks r and
// 2W-1-r (length L each). Each chunk gets the K-1 samples before it from a neighbour (chunk r from
// rank r-1's first half, zeros on rank 0; chunk 2W-1-r from rank r+1's second half, or the own
// first half on rank W-1), then y[c, t] = sum_j w_r[c, 0, j] * [halo | chunk][c, t + j] in fp32,
// rounded once to P. Shapes: problems/071_hyena_conv1d_boundary_exchange/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p071 {
namespace {

// x and the filter differ per rank: a skipped exchange leaves zero halos, which changes the first
// K-1 outputs of every chunk but global chunk 0 by O(1).
Tensors make_inputs(InputContext& ctx) {
  const at::Tensor x = ctx.randn({ctx.dim("B"), ctx.dim("C"), 2 * ctx.dim("L")});
  const at::Tensor weight = ctx.randn({ctx.dim("C"), 1, ctx.dim("K")});
  return {{"x", x}, {"weight", weight}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& x = in.at("x");
  const at::Tensor& weight = in.at("weight");
  const int world = comm.size(), rank = comm.rank();
  const std::int64_t length = x.size(2) / 2, halo = weight.size(2) - 1;
  const at::Tensor first = x.narrow(2, 0, length), second = x.narrow(2, length, length);
  const at::Tensor tail_first = first.narrow(2, length - halo, halo).contiguous();
  const at::Tensor tail_second = second.narrow(2, length - halo, halo).contiguous();

  at::Tensor prev_tail = at::zeros_like(tail_first);
  at::Tensor next_tail = rank == world - 1 ? tail_first.clone() : at::empty_like(tail_first);
  // Two phases of disjoint pairs, (0,1), (2,3), ... then (1,2), (3,4), ...: even ranks pair with
  // r+1 first, odd ranks with r-1, so the exchange neither deadlocks nor runs as a chain.
  auto with_prev = [&] {
    if (rank > 0) comm.send_recv(tail_second, rank - 1, prev_tail, rank - 1);
  };
  auto with_next = [&] {
    if (rank < world - 1) comm.send_recv(tail_first, rank + 1, next_tail, rank + 1);
  };
  if (rank % 2 == 0) {
    with_next();
    with_prev();
  } else {
    with_prev();
    with_next();
  }

  const at::ScalarType compute = at::promote_types(x.scalar_type(), at::kFloat);
  const at::Tensor w = weight.to(compute);
  const std::int64_t channels = x.size(1);
  auto conv = [&](const at::Tensor& halo_part, const at::Tensor& chunk) -> at::Tensor {
    const at::Tensor padded = at::cat({halo_part, chunk}, 2).to(compute);
    return at::conv1d(padded, w, at::Tensor(), at::IntArrayRef{1}, at::IntArrayRef{0},
                      at::IntArrayRef{1}, channels);
  };
  const at::Tensor y = at::cat({conv(prev_tail, first), conv(next_tail, second)}, 2);
  return {{"y", y.to(x.scalar_type())}};
}

}  // namespace

PKB_REGISTER_REFERENCE("071_hyena_conv1d_boundary_exchange", make_inputs, solve);

}  // namespace pkb::ref::p071
