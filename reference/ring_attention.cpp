// The ring walk, the causal ring-attention forward and the attention layer (ring_attention.h).
#include "reference/ring_attention.h"

#include <ATen/CPUGeneratorImpl.h>

#include <cmath>
#include <limits>

#include "reference/matmul_p.h"

namespace pkb::ref {

void visit_ring_blocks(Comm& ring, const at::Tensor& k, const at::Tensor& v,
                       const std::function<void(int step, const at::Tensor& k_block,
                                                const at::Tensor& v_block)>& visit) {
  const int world = ring.size(), rank = ring.rank();
  at::Tensor k_cur = k.contiguous(), v_cur = v.contiguous();
  for (int step = 0; step < world; ++step) {
    at::Tensor k_next, v_next;
    if (step + 1 < world) {  // forward the block we hold; no exchange after the last step
      k_next = at::empty_like(k_cur);
      v_next = at::empty_like(v_cur);
      ring.send_recv(k_cur, (rank + 1) % world, k_next, (rank - 1 + world) % world);
      ring.send_recv(v_cur, (rank + 1) % world, v_next, (rank - 1 + world) % world);
    }
    visit(step, k_cur, v_cur);
    k_cur = k_next;
    v_cur = v_next;
  }
}

at::Tensor ring_attention(Comm& ring, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                          double scale) {
  const int rank = ring.rank();
  const auto acc = at::promote_types(q.scalar_type(), at::kFloat);
  const at::Tensor q_bhsd = q.to(acc).transpose(1, 2);  // [B, h, S, D]
  const std::int64_t seq = q.size(1);
  at::Tensor out, lse;
  visit_ring_blocks(ring, k, v, [&](int step, const at::Tensor& k_blk, const at::Tensor& v_blk) {
    // Causal in global positions: the own block (step 0) is masked above the diagonal, earlier
    // ranks' blocks (step <= rank) count in full, later ones not at all.
    if (step > rank) return;
    at::Tensor scores = at::matmul(q_bhsd, k_blk.to(acc).permute({0, 2, 3, 1})) * scale;
    if (step == 0) {
      const at::Tensor future = at::ones({seq, seq}, q.options().dtype(at::kBool)).triu(1);
      scores.masked_fill_(future, -std::numeric_limits<double>::infinity());
    }
    const at::Tensor lse_blk = at::logsumexp(scores, -1);
    const at::Tensor o_blk = at::matmul(at::softmax(scores, -1), v_blk.to(acc).transpose(1, 2));
    if (!out.defined()) {
      out = o_blk;
      lse = lse_blk;
    } else {  // the log-sum-exp merge, in the stable sigmoid form upstream uses
      out = out - at::sigmoid(lse_blk - lse).unsqueeze(-1) * (out - o_blk);
      lse = lse - at::log_sigmoid(lse - lse_blk);
    }
  });
  return out.transpose(1, 2).to(q.scalar_type()).contiguous();
}

at::Tensor ring_attention_layer(Comm& cp_group, const at::Tensor& h, const at::Tensor& w_qkv,
                                const at::Tensor& w_o, std::int64_t heads) {
  const std::int64_t batch = h.size(0), seq = h.size(1);
  const std::int64_t head_dim = w_qkv.size(0) / (3 * heads);
  const at::Tensor qkv = matmul_p(h, w_qkv.t()).view({batch, seq, 3, heads, head_dim});
  const double scale = 1.0 / std::sqrt(static_cast<double>(head_dim));
  const at::Tensor context =
      ring_attention(cp_group, qkv.select(2, 0), qkv.select(2, 1), qkv.select(2, 2), scale);
  return matmul_p(context.reshape({batch, seq, heads * head_dim}), w_o.t()).contiguous();
}

Tensors make_ring_attention_layer_inputs(InputContext& ctx, std::uint64_t data_seed,
                                         std::uint64_t weight_seed, std::int64_t seq,
                                         std::int64_t local) {
  const std::int64_t batch = ctx.dim("B"), hidden = ctx.dim("H") * ctx.dim("D");
  at::Generator data = at::detail::createCPUGenerator(data_seed);
  at::Generator weights = at::detail::createCPUGenerator(weight_seed);
  at::Tensor hidden_states = ctx.place(at::randn({batch, seq, hidden}, data), ctx.dtype());
  at::Tensor w_qkv = ctx.place(at::randn({3 * local, hidden}, weights) * 0.02, ctx.dtype());
  at::Tensor w_o = ctx.place(at::randn({hidden, local}, weights) * 0.02, ctx.dtype());
  return {{"hidden_states", hidden_states}, {"w_qkv", w_qkv}, {"w_o", w_o}};
}

}  // namespace pkb::ref
