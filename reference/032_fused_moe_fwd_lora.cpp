// Expert-parallel MoE forward with LoRA experts: as 031 (router in P, top-2, all-to-all to the
// experts' owners and back, out[t] = rnd(rnd(w_t1 y_t1) + rnd(w_t2 y_t2))), but the owner's MLP
// adds a rank-R update to each projection, lora(x, A, B) = rnd(rnd(x A^T) B^T):
// g = rnd(gate(x) + lora_gate), u = rnd(up(x) + lora_up), y = rnd(rnd(silu(g)) u),
// result = rnd(down(y) + lora(y, down_A, down_B)).
// Shapes: problems/032_fused_moe_fwd_lora/problem.json.
#include "reference/matmul_p.h"
#include "reference/moe_dispatch.h"
#include "reference/moe_inputs.h"
#include "reference/registry.h"

namespace pkb::ref::p032 {
namespace {

constexpr std::int64_t kExperts = 8;  // problem.json's num_experts (the router's rows)

// The low-rank update (x A^T) B^T, rounded to P after each product.
at::Tensor lora(const at::Tensor& x, const at::Tensor& a, const at::Tensor& b) {
  return matmul_p(matmul_p(x, a.t()), b.t());
}

// Every rank draws its own router, MLP and unit-variance LoRA factors (upstream's scale), so a
// skipped all-to-all (a token's rows served by the wrong MLP, or not at all) changes the output;
// near-tied routings are redrawn (moe_inputs.cpp).
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t width = ctx.dim("N"), inner = ctx.dim("I"), lora_rank = ctx.dim("R");
  Tensors in = moe::draw_randn_router_inputs(ctx, kExperts);
  auto normal = [&](at::IntArrayRef shape) {
    return ctx.place(at::randn(shape, ctx.generator(), at::kFloat), ctx.dtype());
  };
  in.set("lora_gate_A", normal({lora_rank, width}));
  in.set("lora_gate_B", normal({inner, lora_rank}));
  in.set("lora_up_A", normal({lora_rank, width}));
  in.set("lora_up_B", normal({inner, lora_rank}));
  in.set("lora_down_A", normal({lora_rank, inner}));
  in.set("lora_down_B", normal({width, lora_rank}));
  moe::redraw_near_ties(ctx, in);
  return in;
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const moe::Routing routing = moe::route_top_k(in, scalars.integer("top_k"));
  const moe::Dispatch plan =
      moe::plan_dispatch(comm, routing.experts, scalars.integer("num_experts"));
  const at::Tensor received = moe::dispatch_rows(comm, plan, in.at("hidden_states"));
  // Each projection gains its rank-R update, added in P.
  const moe::Projection base = moe::matmul_add_projection(in);
  const at::Tensor y =
      moe::expert_mlp(received, [&](const at::Tensor& rows, const std::string& name) {
        return base(rows, name) +
               lora(rows, in.at("lora_" + name + "_A"), in.at("lora_" + name + "_B"));
      });
  return {{"out", moe::combine(comm, plan, y, routing.weights)}};
}

}  // namespace

PKB_REGISTER_REFERENCE("032_fused_moe_fwd_lora", make_inputs, solve);

}  // namespace pkb::ref::p032
