// Ulysses all-to-all on fused QKV: qkv_r[B, T, 3*C] (C = H*D, last dim [q | k | v]); with
// c = C/W, rank r returns out_r[b, s*T + t, m*c + i] = qkv_s[b, t, m*C + r*c + i], m = q, k, v.
// Shapes: problems/038_ulysses_gather_seq_scatter_heads_qkv/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p038 {
namespace {

// Standard normal and different on every rank: a skipped exchange, or the fused dim cut into
// W contiguous chunks instead of a head slice of each of q, k and v, changes the output.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t fused = 3 * ctx.dim("H") * ctx.dim("D");
  return {{"qkv", ctx.randn({ctx.dim("B"), ctx.dim("T"), fused})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& qkv = in.at("qkv");
  const std::int64_t world = comm.size();
  const std::int64_t batch = qkv.size(0), seq = qkv.size(1), slice = qkv.size(2) / 3 / world;
  // Head slice j of q, k and v becomes row j of dim 0, the axis all_to_all splits.
  const at::Tensor send =
      qkv.view({batch, seq, 3, world, slice}).permute({3, 0, 1, 2, 4}).contiguous();
  at::Tensor received = at::empty_like(send);
  comm.all_to_all(received, send, {}, {});
  // received[s] holds rank s's T positions: they go to sequence rows s*T .. s*T + T - 1.
  at::Tensor out = received.permute({1, 0, 2, 3, 4}).reshape({batch, world * seq, 3 * slice});
  return {{"out", out}};
}

}  // namespace

PKB_REGISTER_REFERENCE("038_ulysses_gather_seq_scatter_heads_qkv", make_inputs, solve);

}  // namespace pkb::ref::p038
