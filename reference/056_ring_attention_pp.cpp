// Ring attention with pipeline parallelism (Megatron order, TP = DP = 1): CP groups are
// contiguous blocks of W/2 ranks (one per pipeline stage), PP groups the strided pairs
// {c, c + W/2}. Each stage applies Block(h) = rnd(RingAttn_CP(q, k, v) w_o^T) with
// q, k, v from rnd(h w_qkv^T) viewed [B, S, 3, H, D], causal ring attention of 054 over the CP
// group (scale D^-1/2). Stage 0 returns o0 = Block0(hidden_states) and sends it to its PP peer;
// stage 1 returns Block1(o0 received), ignoring its own hidden_states.
// Shapes: problems/056_ring_attention_pp/problem.json.
#include <cmath>
#include <limits>

#include <ATen/CPUGeneratorImpl.h>

#include "reference/matmul_p.h"
#include "reference/registry.h"

namespace pkb::ref {
namespace {

// Upstream's seeds: hidden_states from 42 + 57000 + c (the same on both stages; stage 1 ignores
// it), the weights from 42 + 77000 + p (one set per stage). Stage 1 never sees hidden_states, so
// a skipped stage send leaves it with zeros; a skipped ring exchange changes CP ranks c > 0.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t world = ctx.world(), pp = std::min<std::int64_t>(2, world), cp = world / pp;
  const std::int64_t stage = ctx.rank() / cp, cp_rank = ctx.rank() % cp;
  const std::int64_t batch = ctx.dim("B"), seq = ctx.dim("T") / cp;
  const std::int64_t hidden = ctx.dim("H") * ctx.dim("D");
  const std::uint64_t trial_offset = 1000003ULL * static_cast<std::uint64_t>(ctx.trial());
  at::Generator data = at::detail::createCPUGenerator(42 + 57000 + cp_rank + trial_offset);
  at::Generator weights = at::detail::createCPUGenerator(42 + 77000 + stage + trial_offset);
  at::Tensor hidden_states = ctx.place(at::randn({batch, seq, hidden}, data), ctx.dtype());
  at::Tensor w_qkv = ctx.place(at::randn({3 * hidden, hidden}, weights) * 0.02, ctx.dtype());
  at::Tensor w_o = ctx.place(at::randn({hidden, hidden}, weights) * 0.02, ctx.dtype());
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

at::Tensor attention_block(Comm& cp_group, const at::Tensor& h, const Tensors& in,
                           std::int64_t heads) {
  const std::int64_t batch = h.size(0), seq = h.size(1);
  const at::Tensor& w_qkv = in.at("w_qkv");
  const std::int64_t head_dim = w_qkv.size(0) / (3 * heads);
  const at::Tensor qkv = matmul_p(h, w_qkv.t()).view({batch, seq, 3, heads, head_dim});
  const at::Tensor context = ring_attention(cp_group, qkv.select(2, 0), qkv.select(2, 1),
                                            qkv.select(2, 2), 1.0 / std::sqrt(double(head_dim)));
  return matmul_p(context.reshape({batch, seq, heads * head_dim}), in.at("w_o").t()).contiguous();
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const auto heads = static_cast<std::int64_t>(scalars.at("num_heads"));
  Comm& cp_group = comm.group("cp");
  Comm& pp_group = comm.group("pp");
  const at::Tensor& hidden_states = in.at("hidden_states");
  at::Tensor stage_input = hidden_states;
  if (pp_group.rank() > 0) {  // receive the previous stage's activations
    stage_input = at::empty_like(hidden_states);
    pp_group.recv(stage_input, pp_group.rank() - 1);
  }
  at::Tensor out = attention_block(cp_group, stage_input, in, heads);
  if (pp_group.rank() + 1 < pp_group.size()) pp_group.send(out, pp_group.rank() + 1);
  return {{"out", out}};
}

}  // namespace

PKB_REGISTER_REFERENCE("056_ring_attention_pp", make_inputs, solve);

}  // namespace pkb::ref
