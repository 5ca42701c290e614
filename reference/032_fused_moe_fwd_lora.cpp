// Expert-parallel MoE forward with LoRA experts: as 031 (router in P, top-2, all-to-all to the
// experts' owners and back, out[t] = rnd(rnd(w_t1 y_t1) + rnd(w_t2 y_t2))), but the owner's MLP
// adds a rank-R update to each projection, lora(x, A, B) = rnd(rnd(x A^T) B^T):
// g = rnd(gate(x) + lora_gate), u = rnd(up(x) + lora_up), y = rnd(rnd(silu(g)) u),
// result = rnd(down(y) + lora(y, down_A, down_B)).
// Shapes: problems/032_fused_moe_fwd_lora/problem.json.
#include <cmath>

#include "reference/matmul_p.h"
#include "reference/registry.h"

namespace pkb::ref {
namespace {

constexpr std::int64_t kExperts = 8;  // problem.json's num_experts (the router's rows)
constexpr int kMaxRedraws = 100;

// x @ weight^T + bias, accumulated in fp32 (fp64 in the checker's rerun), rounded once to P.
at::Tensor linear_p(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias) {
  const at::ScalarType acc = at::promote_types(x.scalar_type(), at::kFloat);
  return (at::matmul(x.to(acc), weight.to(acc).t()) + bias.to(acc)).to(x.scalar_type());
}

// The low-rank update (x A^T) B^T, rounded to P after each product.
at::Tensor lora(const at::Tensor& x, const at::Tensor& a, const at::Tensor& b) {
  return matmul_p(matmul_p(x, a.t()), b.t());
}

// Redraws the tokens whose 2nd and 3rd router logits (exact, from the P-rounded inputs) are
// closer than rounding the logits and probabilities to P can move them (2^-7 relative, plus a
// bf16 ulp of the probability ratio; the margin doubles both). Such near-ties route differently
// in P and in the checker's fp64 rerun, and one flip makes the reference's own error as large
// as the output, which would let a skipped all-to-all pass.
void separate_near_ties(at::Tensor& hidden, const at::Tensor& gate_weight,
                        const at::Tensor& gate_bias, at::ScalarType dtype, at::Generator& gen) {
  auto rounded = [&](const at::Tensor& t) { return t.to(dtype).to(at::kDouble); };
  for (int attempt = 0; attempt < kMaxRedraws; ++attempt) {
    const at::Tensor logits =
        at::matmul(rounded(hidden), rounded(gate_weight).t()) + rounded(gate_bias);
    const at::Tensor top = std::get<0>(at::topk(logits, 3, -1));
    const at::Tensor second = top.select(1, 1), third = top.select(1, 2);
    const at::Tensor margin =
        at::maximum(second.abs(), third.abs()) * std::ldexp(1.0, -6) + std::ldexp(1.0, -5);
    const at::Tensor ambiguous = (second - third) < margin;
    const std::int64_t count = ambiguous.sum().item<std::int64_t>();
    if (count == 0) return;
    hidden.index_put_({ambiguous}, at::randn({count, hidden.size(1)}, gen, hidden.options()));
  }
  throw std::runtime_error("032_fused_moe_fwd_lora: router near-ties remain after redrawing");
}

// Every rank draws its own router, MLP and unit-variance LoRA factors (upstream's scale), so a
// skipped all-to-all (a token's rows served by the wrong MLP, or not at all) changes the output;
// near-tied routings are redrawn (above).
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t rows = ctx.dim("M"), width = ctx.dim("N"), inner = ctx.dim("I");
  const std::int64_t lora_rank = ctx.dim("R");
  at::Generator& gen = ctx.generator();
  const at::TensorOptions fp32 = at::TensorOptions().dtype(at::kFloat);
  // nn.Linear's default init: U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
  auto uniform = [&](at::IntArrayRef shape, std::int64_t fan_in) {
    const double bound = 1.0 / std::sqrt(static_cast<double>(fan_in));
    return ctx.place(at::rand(shape, gen, fp32) * (2 * bound) - bound, ctx.dtype());
  };
  at::Tensor hidden = at::randn({rows, width}, gen, fp32);
  const at::Tensor gate_weight = at::randn({kExperts, width}, gen, fp32);
  const at::Tensor gate_bias = at::randn({kExperts}, gen, fp32);
  const at::Tensor gate_proj_weight = uniform({inner, width}, width);
  const at::Tensor gate_proj_bias = uniform({inner}, width);
  const at::Tensor up_proj_weight = uniform({inner, width}, width);
  const at::Tensor up_proj_bias = uniform({inner}, width);
  const at::Tensor down_proj_weight = uniform({width, inner}, inner);
  const at::Tensor down_proj_bias = uniform({width}, inner);
  auto normal = [&](at::IntArrayRef shape) {
    return ctx.place(at::randn(shape, gen, fp32), ctx.dtype());
  };
  const at::Tensor lora_gate_a = normal({lora_rank, width}),
                   lora_gate_b = normal({inner, lora_rank});
  const at::Tensor lora_up_a = normal({lora_rank, width}), lora_up_b = normal({inner, lora_rank});
  const at::Tensor lora_down_a = normal({lora_rank, inner}),
                   lora_down_b = normal({width, lora_rank});
  separate_near_ties(hidden, gate_weight, gate_bias, ctx.dtype(), gen);
  return {{"hidden_states", ctx.place(hidden, ctx.dtype())},
          {"gate_weight", ctx.place(gate_weight, ctx.dtype())},
          {"gate_bias", ctx.place(gate_bias, ctx.dtype())},
          {"gate_proj_weight", gate_proj_weight},
          {"gate_proj_bias", gate_proj_bias},
          {"up_proj_weight", up_proj_weight},
          {"up_proj_bias", up_proj_bias},
          {"down_proj_weight", down_proj_weight},
          {"down_proj_bias", down_proj_bias},
          {"lora_gate_A", lora_gate_a},
          {"lora_gate_B", lora_gate_b},
          {"lora_up_A", lora_up_a},
          {"lora_up_B", lora_up_b},
          {"lora_down_A", lora_down_a},
          {"lora_down_B", lora_down_b}};
}

std::vector<std::int64_t> to_vector(const at::Tensor& values) {
  const at::Tensor host = values.to(at::kCPU).contiguous();
  return {host.data_ptr<std::int64_t>(), host.data_ptr<std::int64_t>() + host.numel()};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& x = in.at("hidden_states");
  const std::int64_t num_experts = scalars.integer("num_experts");
  const std::int64_t top_k = scalars.integer("top_k");
  const std::int64_t per_rank = num_experts / comm.size();
  const std::int64_t tokens = x.size(0);
  const at::ScalarType acc = at::promote_types(x.scalar_type(), at::kFloat);

  const at::Tensor logits = linear_p(x, in.at("gate_weight"), in.at("gate_bias"));
  const at::Tensor probs = at::softmax(logits.to(acc), -1).to(x.scalar_type());
  const auto [weights, experts] = at::topk(probs, top_k, -1);

  // Rows this rank sends to each owner, and rows it receives from each rank.
  const at::Tensor counts = at::bincount(experts.reshape({-1}), {}, num_experts);
  at::Tensor all_counts = at::empty({comm.size(), num_experts}, counts.options());
  comm.all_gather(all_counts, counts);
  const auto send_splits = to_vector(counts.view({comm.size(), per_rank}).sum(1));
  const auto recv_splits = to_vector(all_counts.narrow(1, comm.rank() * per_rank, per_rank).sum(1));
  std::int64_t received = 0;
  for (std::int64_t count : recv_splits) received += count;

  // (token, expert) pairs in expert-major, token-minor order: blocks for rank 0, 1, ...
  const at::Tensor pair_expert = experts.reshape({-1});
  at::Tensor pair_token = at::arange(tokens, pair_expert.options()).repeat_interleave(top_k);
  const at::Tensor order = at::argsort(pair_expert * tokens + pair_token);
  pair_token = pair_token.index_select(0, order);
  const at::Tensor pair_weight = weights.reshape({-1}).index_select(0, order);
  const at::Tensor send_rows = x.index_select(0, pair_token);
  at::Tensor recv_rows = at::empty({received, x.size(1)}, x.options());
  comm.all_to_all(recv_rows, send_rows, recv_splits, send_splits);

  // All of this rank's experts share its MLP weights, so the rows need no regrouping.
  const at::Tensor gate = linear_p(recv_rows, in.at("gate_proj_weight"), in.at("gate_proj_bias")) +
                          lora(recv_rows, in.at("lora_gate_A"), in.at("lora_gate_B"));
  const at::Tensor up = linear_p(recv_rows, in.at("up_proj_weight"), in.at("up_proj_bias")) +
                        lora(recv_rows, in.at("lora_up_A"), in.at("lora_up_B"));
  const at::Tensor act = at::silu(gate.to(acc)).to(x.scalar_type()) * up;
  const at::Tensor expert_out = (linear_p(act, in.at("down_proj_weight"), in.at("down_proj_bias")) +
                                 lora(act, in.at("lora_down_A"), in.at("lora_down_B")))
                                    .contiguous();

  at::Tensor returned = at::empty_like(send_rows);
  comm.all_to_all(returned, expert_out, send_splits, recv_splits);
  at::Tensor out = at::zeros_like(x);
  out.index_add_(0, pair_token, returned * pair_weight.unsqueeze(1));
  return {{"out", out}};
}

}  // namespace

PKB_REGISTER_REFERENCE("032_fused_moe_fwd_lora", make_inputs, solve);

}  // namespace pkb::ref
