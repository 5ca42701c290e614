// Ulysses all-to-all on one tensor: x[M, N] is split along scatter_dim (0) into W blocks, block j
// goes to rank j, and the received blocks are concatenated along gather_dim (1) in source-rank
// order: out_r[i, s*N + c] = x_s[r*(M/W) + i, c]. Shapes: problems/033_*/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p033 {
namespace {

// Standard normal and different on every rank: a skipped exchange leaves the other ranks' column
// blocks zero, and a wrong block or source order moves values.
Tensors make_inputs(InputContext& ctx) { return {{"x", ctx.randn({ctx.dim("M"), ctx.dim("N")})}}; }

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& x = in.at("x");
  const std::int64_t scatter_dim = scalars.integer("scatter_dim");
  const std::int64_t gather_dim = scalars.integer("gather_dim");
  // Block j of x becomes slice j of a [W, ...] send buffer; all_to_all splits along dim 0.
  const at::Tensor send = at::stack(x.chunk(comm.size(), scatter_dim)).contiguous();
  at::Tensor received = at::empty_like(send);
  comm.all_to_all(received, send, {}, {});
  return {{"out", at::cat(received.unbind(0), gather_dim).contiguous()}};
}

}  // namespace

PKB_REGISTER_REFERENCE("033_ulysses_all_to_all_tensor_primitive", make_inputs, solve);

}  // namespace pkb::ref::p033
