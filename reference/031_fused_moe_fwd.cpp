// Expert-parallel MoE forward: each rank routes its tokens (router in P, top-2 of the P-rounded
// softmax), sends every (token, expert) row to the expert's owner rank (all-to-all with split
// sizes from all-gathered counts), the owner applies its MLP down(silu(gate(x)) * up(x)), and a
// second all-to-all brings the rows back: out[t] = rnd(rnd(w_t1 y_t1) + rnd(w_t2 y_t2)).
// Shapes: problems/031_fused_moe_fwd/problem.json.
#include "reference/moe_dispatch.h"
#include "reference/moe_inputs.h"
#include "reference/registry.h"

namespace pkb::ref::p031 {
namespace {

constexpr std::int64_t kExperts = 8;  // problem.json's num_experts (the router's rows)

// Every rank draws its own router and MLP, so a skipped all-to-all (a token's rows served by the
// wrong MLP, or not at all) changes the output; near-tied routings are redrawn (moe_inputs.cpp).
Tensors make_inputs(InputContext& ctx) {
  Tensors in = moe::draw_randn_router_inputs(ctx, kExperts);
  moe::redraw_near_ties(ctx, in);
  return in;
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const moe::Routing routing = moe::route_top_k(in, scalars.integer("top_k"));
  const moe::Dispatch plan =
      moe::plan_dispatch(comm, routing.experts, scalars.integer("num_experts"));
  const at::Tensor received = moe::dispatch_rows(comm, plan, in.at("hidden_states"));
  const at::Tensor y = moe::expert_mlp(received, moe::matmul_add_projection(in));
  return {{"out", moe::combine(comm, plan, y, routing.weights)}};
}

}  // namespace

PKB_REGISTER_REFERENCE("031_fused_moe_fwd", make_inputs, solve);

}  // namespace pkb::ref::p031
