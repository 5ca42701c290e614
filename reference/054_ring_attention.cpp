// Causal ring attention with the sequence split over ranks: rank r holds positions r*S..r*S+S-1 of
// q, k, v ([B, S, H, D]). K/V blocks travel around the ring (send to r+1, receive from r-1; W-1
// exchanges); at step s rank r holds rank (r-s) mod W's block and uses it only if s <= r (causal
// in global positions: triangular mask inside the own block, earlier blocks in full, later none).
// Per block, in fp32 (fp64 in the fp64 rerun): scores = q k^T * scale, lse_b = logsumexp(scores),
// o_b = softmax(scores) v; merge: out -= sigmoid(lse_b - lse) * (out - o_b),
// lse -= log_sigmoid(lse - lse_b). out is rounded to P once.
// Shapes: problems/054_ring_attention/problem.json.
#include <limits>

#include "reference/registry.h"

namespace pkb::ref {
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
  const at::Tensor& q = in.at("q");
  const double scale = scalars.at("softmax_scale");
  const int world = comm.size(), rank = comm.rank();
  const auto acc = at::promote_types(q.scalar_type(), at::kFloat);
  const at::Tensor q_bhsd = q.to(acc).transpose(1, 2);  // [B, H, S, D]
  const std::int64_t seq = q.size(1);
  at::Tensor k_cur = in.at("k").contiguous(), v_cur = in.at("v").contiguous();
  at::Tensor out, lse;
  for (int step = 0; step < world; ++step) {
    at::Tensor k_next, v_next;
    if (step + 1 < world) {  // forward the block we hold; no exchange after the last step
      k_next = at::empty_like(k_cur);
      v_next = at::empty_like(v_cur);
      comm.send_recv(k_cur, (rank + 1) % world, k_next, (rank - 1 + world) % world);
      comm.send_recv(v_cur, (rank + 1) % world, v_next, (rank - 1 + world) % world);
    }
    if (step <= rank) {
      at::Tensor scores = at::matmul(q_bhsd, k_cur.to(acc).permute({0, 2, 3, 1})) * scale;
      if (step == 0) {
        const at::Tensor future = at::ones({seq, seq}, q.options().dtype(at::kBool)).triu(1);
        scores.masked_fill_(future, -std::numeric_limits<double>::infinity());
      }
      const at::Tensor lse_blk = at::logsumexp(scores, -1);
      const at::Tensor o_blk = at::matmul(at::softmax(scores, -1), v_cur.to(acc).transpose(1, 2));
      if (!out.defined()) {
        out = o_blk;
        lse = lse_blk;
      } else {
        out = out - at::sigmoid(lse_blk - lse).unsqueeze(-1) * (out - o_blk);
        lse = lse - at::log_sigmoid(lse - lse_blk);
      }
    }
    k_cur = k_next;
    v_cur = v_next;
  }
  return {{"out", out.transpose(1, 2).to(q.scalar_type()).contiguous()}};
}

}  // namespace

PKB_REGISTER_REFERENCE("054_ring_attention", make_inputs, solve);

}  // namespace pkb::ref
