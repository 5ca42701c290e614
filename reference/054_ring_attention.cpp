// Causal ring attention with the sequence split over ranks: rank r holds positions r*S..r*S+S-1 of
// q, k, v ([B, S, H, D]). K/V blocks travel around the ring (send to r+1, receive from r-1; W-1
// exchanges); at step s rank r holds rank (r-s) mod W's block and uses it only if s <= r (causal
// in global positions: triangular mask inside the own block, earlier blocks in full, later none).
// Per block, in fp32 (fp64 in the fp64 rerun): scores = q k^T * scale, lse_b = logsumexp(scores),
// o_b = softmax(scores) v; merge: out -= sigmoid(lse_b - lse) * (out - o_b),
// lse -= log_sigmoid(lse - lse_b). out is rounded to P once. The loop is ring_attention.h's.
// Shapes: problems/054_ring_attention/problem.json.
#include "reference/registry.h"
#include "reference/ring_attention.h"

namespace pkb::ref::p054 {
namespace {

// Per-rank seeds, so every K/V block differs: a rank that skips the exchange attends to zeros
// (or to its own block again) instead of its predecessors' keys, which changes every rank r > 0.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t batch = ctx.dim("B"), seq = ctx.dim("T") / ctx.world();
  const std::int64_t heads = ctx.dim("H"), head_dim = ctx.dim("D");
  at::Tensor q = ctx.randn({batch, seq, heads, head_dim});
  at::Tensor k = ctx.randn({batch, seq, heads, head_dim});
  at::Tensor v = ctx.randn({batch, seq, heads, head_dim});
  return {{"q", q}, {"k", k}, {"v", v}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  return {{"out",
           ring_attention(comm, in.at("q"), in.at("k"), in.at("v"), scalars.at("softmax_scale"))}};
}

}  // namespace

PKB_REGISTER_REFERENCE("054_ring_attention", make_inputs, solve);

}  // namespace pkb::ref::p054
