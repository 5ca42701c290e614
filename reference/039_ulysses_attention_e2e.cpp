// Ulysses attention (upstream bug fixed: attention over the sequence, not over heads): rank r
// projects its S positions, qkv = P(x w_qkv^T); an all-to-all gives each rank h = heads/W heads
// over all L = W*S positions; o = P(P(softmax(P(q k^T) / sqrt(D))) v); an all-to-all returns
// each rank its positions with all heads; out = P(attn w_o^T).
// Shapes and tolerances: problems/039_ulysses_attention_e2e/problem.json.
#include <cmath>

#include "reference/matmul_p.h"
#include "reference/registry.h"

namespace pkb::ref::p039 {
namespace {

// Tokens and weights differ on every rank, and the projections have std 1/sqrt(C) so that
// q, k and the scores have std ~1 (upstream's std-1 weights make the softmax one-hot): a rank
// that skips an all-to-all attends over its own positions only and its output moves by O(1).
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t hidden = ctx.dim("HIDDEN");
  const std::int64_t local_seq = std::max<std::int64_t>(1, ctx.dim("T") / ctx.world());
  const double weight_std = 1.0 / std::sqrt(static_cast<double>(hidden));
  const auto fp32 = at::TensorOptions().dtype(at::kFloat);
  at::Tensor x = ctx.randn({ctx.dim("B"), local_seq, hidden});
  at::Tensor w_qkv = at::randn({3 * hidden, hidden}, ctx.generator(), fp32) * weight_std;
  at::Tensor w_o = at::randn({hidden, hidden}, ctx.generator(), fp32) * weight_std;
  return {{"hidden_states", x},
          {"w_qkv", ctx.place(w_qkv, ctx.dtype())},
          {"w_o", ctx.place(w_o, ctx.dtype())}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& x = in.at("hidden_states");
  const std::int64_t world = comm.size();
  const std::int64_t heads = static_cast<std::int64_t>(scalars.at("num_heads"));
  const std::int64_t batch = x.size(0), local_seq = x.size(1), hidden = x.size(2);
  const std::int64_t head_dim = hidden / heads, local_heads = heads / world;
  const std::int64_t seq = world * local_seq;
  const at::ScalarType stats_type = at::promote_types(x.scalar_type(), at::kFloat);

  // All-to-all 1: head group j of q, k and v (row j of dim 0) goes to rank j.
  const at::Tensor qkv = matmul_p(x, in.at("w_qkv").t());
  const at::Tensor send = qkv.view({batch, local_seq, 3, world, local_heads, head_dim})
                              .permute({3, 0, 1, 2, 4, 5}).contiguous();
  at::Tensor received = at::empty_like(send);
  comm.all_to_all(received, send, {}, {});
  // received[s] holds rank s's positions s*S .. s*S + S - 1: [3, B, h, L, D].
  const at::Tensor full =
      received.permute({3, 1, 4, 0, 2, 5}).reshape({3, batch, local_heads, seq, head_dim});
  const at::Tensor q = full[0], k = full[1], v = full[2];

  const at::Tensor scores =
      matmul_p(q, k.transpose(-1, -2)).to(stats_type) * (1.0 / std::sqrt(double(head_dim)));
  const at::Tensor probs = at::softmax(scores, -1).to(x.scalar_type());
  const at::Tensor o = matmul_p(probs, v);  // [B, h, L, D]

  // All-to-all 2: sequence block j (rank j's positions) goes back to rank j.
  const at::Tensor send_back =
      o.view({batch, local_heads, world, local_seq, head_dim}).permute({2, 0, 3, 1, 4}).contiguous();
  at::Tensor returned = at::empty_like(send_back);
  comm.all_to_all(returned, send_back, {}, {});
  // returned[s] holds head group s: heads s*h .. s*h + h - 1.
  const at::Tensor attn = returned.permute({1, 2, 0, 3, 4}).reshape({batch, local_seq, hidden});
  return {{"out", matmul_p(attn, in.at("w_o").t())}};
}

}  // namespace

PKB_REGISTER_REFERENCE("039_ulysses_attention_e2e", make_inputs, solve);

}  // namespace pkb::ref::p039
