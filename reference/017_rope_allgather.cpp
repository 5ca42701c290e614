// RoPE + all-gather (sequence parallel): rank r embeds its shard x_emb = x*cos + rotate_half(x)*sin
// for x in {q, k} (each product and the sum rounded to P), then gathers both along the sequence
// axis in rank order. Shapes and tolerances: problems/017_rope_allgather/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p017 {
namespace {

// Standard normal and different on every rank: a rank that skips a gather has zeros (and no
// other rank's values) in every sequence slot but its own.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t local_seq = std::max<std::int64_t>(1, ctx.dim("T") / ctx.world());
  const std::int64_t batch = ctx.dim("B");
  const std::int64_t head_dim = ctx.dim("D");
  at::Tensor q = ctx.randn({batch, local_seq, ctx.dim("H"), head_dim});
  at::Tensor k = ctx.randn({batch, local_seq, ctx.dim("H"), head_dim});
  at::Tensor cos = ctx.randn({batch, local_seq, head_dim});
  at::Tensor sin = ctx.randn({batch, local_seq, head_dim});
  return {{"q_local", q}, {"k_local", k}, {"cos_local", cos}, {"sin_local", sin}};
}

at::Tensor rotate_half(const at::Tensor& x) {
  const std::int64_t half = x.size(-1) / 2;
  return at::cat({-x.narrow(-1, half, x.size(-1) - half), x.narrow(-1, 0, half)}, -1);
}

// x[B, S, H, D] of every rank, concatenated along S in rank order.
at::Tensor gather_sequence(Comm& comm, const at::Tensor& x) {
  at::Tensor shards =
      at::empty({comm.size(), x.size(0), x.size(1), x.size(2), x.size(3)}, x.options());
  comm.all_gather(shards, x.contiguous());
  return shards.permute({1, 0, 2, 3, 4}).reshape({x.size(0), -1, x.size(2), x.size(3)});
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor cos = in.at("cos_local").unsqueeze(2);  // broadcast over heads
  const at::Tensor sin = in.at("sin_local").unsqueeze(2);
  const at::Tensor& q = in.at("q_local");
  const at::Tensor& k = in.at("k_local");
  const at::Tensor q_emb = q * cos + rotate_half(q) * sin;
  const at::Tensor k_emb = k * cos + rotate_half(k) * sin;
  return {{"q_glob", gather_sequence(comm, q_emb)}, {"k_glob", gather_sequence(comm, k_emb)}};
}

}  // namespace

PKB_REGISTER_REFERENCE("017_rope_allgather", make_inputs, solve);

}  // namespace pkb::ref::p017
