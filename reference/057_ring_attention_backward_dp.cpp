// Ring-attention backward (non-causal) with context parallelism inside data-parallel replicas
// (Megatron "cp-dp" order: CP groups contiguous, DP groups the strided pairs {c, c + W/2}).
// For query block a (dout, q, out, lse of CP rank a) and key block b (k, v of CP rank b), per
// (batch, head), in fp32: A = q k^T s (s = D^-1/2), P = exp(A - lse), dP = dout v^T,
// delta = rowsum(dout * out), dA = P * (dP - delta), dQ = dA k s, dK = dA^T q s, dV = P^T dout.
// K/V travel to CP rank c+1 with the dK/dV accumulators of their block; dq_c sums dQ(c, b) over
// the blocks in step order, dk_b/dv_b sum over the query ranks starting at b, and a final hop
// delivers them to b. dq, dk, dv are rounded to P, summed over the DP group in P and divided by
// its size. The K/V walk is ring_attention.h's.
// Shapes: problems/057_ring_attention_backward_dp/problem.json.
#include <cmath>

#include <ATen/CPUGeneratorImpl.h>

#include "reference/registry.h"
#include "reference/ring_attention.h"

namespace pkb::ref::p057 {
namespace {

// Each DP replica d draws its whole sequence (dout, q, k, v: [B, T, H, D], in that order) from
// one seed, 42 + 57000 + 100 d + 1000003 trial, and CP rank c keeps block c; out and lse are the
// replica's global (non-causal) attention forward for block c, so dq, dk, dv are true gradients.
// Blocks and replicas differ, so a skipped ring hop or DP sum changes the outputs.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t world = ctx.world(), dp = std::min<std::int64_t>(2, world), cp = world / dp;
  const std::int64_t replica = ctx.rank() / cp, cp_rank = ctx.rank() % cp;
  const std::int64_t batch = ctx.dim("B"), total = ctx.dim("T"), seq = total / cp;
  const std::int64_t heads = ctx.dim("H"), head_dim = ctx.dim("D");
  at::Generator shared =
      at::detail::createCPUGenerator(input_seed(57, static_cast<int>(100 * replica), ctx.trial()));
  Tensors inputs;
  at::Tensor full[4];
  const char* names[4] = {"dout", "q", "k", "v"};
  for (int i = 0; i < 4; ++i) {
    full[i] = at::randn({batch, total, heads, head_dim}, shared).to(ctx.dtype()).to(at::kFloat);
    inputs.set(names[i], ctx.place(full[i].narrow(1, cp_rank * seq, seq), ctx.dtype()));
  }
  const at::Tensor q = full[1].narrow(1, cp_rank * seq, seq).transpose(1, 2);  // [B, H, S, D]
  const at::Tensor scores =
      at::matmul(q, full[2].permute({0, 2, 3, 1})) / std::sqrt(static_cast<double>(head_dim));
  const at::Tensor out = at::matmul(at::softmax(scores, -1), full[3].transpose(1, 2));
  inputs.set("out", ctx.place(out.transpose(1, 2), ctx.dtype()));
  inputs.set("softmax_lse", ctx.place(at::logsumexp(scores, -1), at::kFloat));
  return inputs;
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  Comm& cp_group = comm.group("cp");
  Comm& dp_group = comm.group("dp");
  const int cp = cp_group.size(), rank = cp_group.rank();
  const int next = (rank + 1) % cp, prev = (rank - 1 + cp) % cp;
  const at::ScalarType dtype = in.at("q").scalar_type();
  const auto acc = at::promote_types(dtype, at::kFloat);
  const auto bhsd = [&](const char* name) {
    return in.at(name).to(acc).transpose(1, 2).contiguous();
  };
  const at::Tensor dout = bhsd("dout"), q = bhsd("q"), out = bhsd("out");
  const at::Tensor lse = in.at("softmax_lse").to(acc).unsqueeze(-1);
  const at::Tensor delta = (dout * out).sum(-1, true);
  const double scale = 1.0 / std::sqrt(static_cast<double>(q.size(-1)));
  at::Tensor dq = at::zeros_like(q), dk = at::zeros_like(q), dv = at::zeros_like(q);
  const auto visit_block = [&](int, const at::Tensor& k_blk, const at::Tensor& v_blk) {
    const at::Tensor k = k_blk.to(acc).transpose(1, 2), v = v_blk.to(acc).transpose(1, 2);
    const at::Tensor probs = at::exp(at::matmul(q, k.transpose(-1, -2)) * scale - lse);
    const at::Tensor d_scores = probs * (at::matmul(dout, v.transpose(-1, -2)) - delta);
    dq = dq + at::matmul(d_scores, k) * scale;
    dk = dk + at::matmul(d_scores.transpose(-1, -2), q) * scale;
    dv = dv + at::matmul(probs.transpose(-1, -2), dout);
    if (cp > 1) {  // the accumulators move on with their block; the last hop reaches its owner
      at::Tensor dk_next = at::empty_like(dk), dv_next = at::empty_like(dv);
      cp_group.send_recv(dk.contiguous(), next, dk_next, prev);
      cp_group.send_recv(dv.contiguous(), next, dv_next, prev);
      dk = dk_next;
      dv = dv_next;
    }
  };
  visit_ring_blocks(cp_group, in.at("k"), in.at("v"), visit_block);
  Tensors result;
  const std::int64_t dp = dp_group.size();
  for (auto [name, grad] : {std::pair{"dq", dq}, std::pair{"dk", dk}, std::pair{"dv", dv}}) {
    at::Tensor g = grad.transpose(1, 2).to(dtype).contiguous();
    if (dp > 1) {
      dp_group.all_reduce(g, ReduceOp::sum);
      g.div_(dp);
    }
    result.set(name, g);
  }
  return result;
}

}  // namespace

PKB_REGISTER_REFERENCE("057_ring_attention_backward_dp", make_inputs, solve);

}  // namespace pkb::ref::p057
