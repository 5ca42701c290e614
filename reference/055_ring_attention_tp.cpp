// Ring attention with tensor parallelism (Megatron "tp-cp" order): TP groups are contiguous pairs
// (tp = 2), CP groups strided. Rank (cp rank c, tp rank t) holds sequence block c of
// hidden_states [B, S, H*D] and TP shard t of the projections (H/tp heads):
//   qkv = rnd(hidden w_qkv^T) viewed [B, S, 3, H/tp, D]; context = causal ring attention of 054
//   over the CP group (blocks travel to CP rank c+1, scale D^-1/2); y = rnd(context w_o^T);
//   out = sum of y over the TP group, in P.
// Shapes: problems/055_ring_attention_tp/problem.json.
#include <cmath>
#include <limits>

#include <ATen/CPUGeneratorImpl.h>

#include "reference/matmul_p.h"
#include "reference/registry.h"

namespace pkb::ref {
namespace {

// Upstream's seeds: hidden_states from 42 + 56000 + c (shared by a TP pair, as TP requires),
// the weights from 42 + 66000 + t (shared by all ranks with TP rank t). Sequence blocks and TP
// shards differ, so a skipped ring exchange (ranks with c > 0) or a skipped TP sum (every rank)
// changes the output.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t world = ctx.world(), tp = std::min<std::int64_t>(2, world), cp = world / tp;
  const std::int64_t tp_rank = ctx.rank() % tp, cp_rank = ctx.rank() / tp;
  const std::int64_t batch = ctx.dim("B"), seq = ctx.dim("T") / cp;
  const std::int64_t hidden = ctx.dim("H") * ctx.dim("D");
  const std::int64_t local = ctx.dim("H") / tp * ctx.dim("D");
  const std::uint64_t trial_offset = 1000003ULL * static_cast<std::uint64_t>(ctx.trial());
  at::Generator data = at::detail::createCPUGenerator(42 + 56000 + cp_rank + trial_offset);
  at::Generator weights = at::detail::createCPUGenerator(42 + 66000 + tp_rank + trial_offset);
  at::Tensor hidden_states = ctx.place(at::randn({batch, seq, hidden}, data), ctx.dtype());
  at::Tensor w_qkv = ctx.place(at::randn({3 * local, hidden}, weights) * 0.02, ctx.dtype());
  at::Tensor w_o = ctx.place(at::randn({hidden, local}, weights) * 0.02, ctx.dtype());
  return {{"hidden_states", hidden_states}, {"w_qkv", w_qkv}, {"w_o", w_o}};
}

// Causal ring attention (problem 054) over `ring`: q, k, v [B, S, h, D] in P; result in P.
at::Tensor ring_attention(Comm& ring, const at::Tensor& q, const at::Tensor& k,
                          const at::Tensor& v, double scale) {
  const int world = ring.size(), rank = ring.rank();
  const auto acc = at::promote_types(q.scalar_type(), at::kFloat);
  const at::Tensor q_bhsd = q.to(acc).transpose(1, 2);
  const std::int64_t seq = q.size(1);
  at::Tensor k_cur = k.contiguous(), v_cur = v.contiguous(), out, lse;
  for (int step = 0; step < world; ++step) {
    at::Tensor k_next, v_next;
    if (step + 1 < world) {
      k_next = at::empty_like(k_cur);
      v_next = at::empty_like(v_cur);
      ring.send_recv(k_cur, (rank + 1) % world, k_next, (rank - 1 + world) % world);
      ring.send_recv(v_cur, (rank + 1) % world, v_next, (rank - 1 + world) % world);
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
  return out.transpose(1, 2).to(q.scalar_type()).contiguous();
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& hidden_states = in.at("hidden_states");
  const at::Tensor& w_qkv = in.at("w_qkv");
  const std::int64_t batch = hidden_states.size(0), seq = hidden_states.size(1);
  const std::int64_t heads =
      static_cast<std::int64_t>(scalars.at("num_heads")) / comm.group("tp").size();
  const std::int64_t head_dim = w_qkv.size(0) / (3 * heads);
  const at::Tensor qkv =
      matmul_p(hidden_states, w_qkv.t()).view({batch, seq, 3, heads, head_dim});
  const double scale = 1.0 / std::sqrt(static_cast<double>(head_dim));
  const at::Tensor context = ring_attention(comm.group("cp"), qkv.select(2, 0), qkv.select(2, 1),
                                            qkv.select(2, 2), scale);
  at::Tensor y = matmul_p(context.reshape({batch, seq, heads * head_dim}), in.at("w_o").t());
  y = y.contiguous();
  comm.group("tp").all_reduce(y, ReduceOp::sum);
  return {{"out", y}};
}

}  // namespace

PKB_REGISTER_REFERENCE("055_ring_attention_tp", make_inputs, solve);

}  // namespace pkb::ref
