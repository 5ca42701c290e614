// Ulysses gather-sequence / scatter-heads: x[B, T, H, D] (local sequence, all heads) is split into
// W contiguous head groups of h = H/W, group j goes to rank j, and the received pieces are
// concatenated along the sequence in source-rank order:
// out_r[b, s*T + t, i, d] = x_s[b, t, r*h + i, d]. Shapes: problems/036_*/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p036 {
namespace {

// Standard normal and different on every rank: a skipped exchange leaves the other ranks'
// sequence blocks zero, and taking interleaved instead of contiguous heads moves values.
Tensors make_inputs(InputContext& ctx) {
  return {{"x", ctx.randn({ctx.dim("B"), ctx.dim("T"), ctx.dim("H"), ctx.dim("D")})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& x = in.at("x");
  // Head group j becomes slice j of a [W, B, T, h, D] send buffer; all_to_all splits along dim 0.
  const at::Tensor send = at::stack(x.chunk(comm.size(), scalars.integer("head_dim"))).contiguous();
  at::Tensor received = at::empty_like(send);
  comm.all_to_all(received, send, {}, {});
  return {{"out", at::cat(received.unbind(0), scalars.integer("seq_dim")).contiguous()}};
}

}  // namespace

PKB_REGISTER_REFERENCE("036_ulysses_gather_seq_scatter_heads", make_inputs, solve);

}  // namespace pkb::ref::p036
