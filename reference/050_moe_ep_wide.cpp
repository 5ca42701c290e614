// Expert-parallel MoE forward, E = 2W experts, experts 2r and 2r+1 on rank r (sharing its MLP;
// a token that picks both sends its row there twice). Rank r routes its tokens with
// its own router: prob = P(softmax(P(x Wg^T + bg))), top-2 by a stable descending sort (ties to
// the lower expert), weights not renormalised. Counts are all-gathered, the (token, expert)
// pairs go out expert-major (token-ascending) in one all-to-all, every received row passes
// through the receiving rank's MLP y = down(P(P(silu(gate(x))) * up(x))), a second all-to-all
// brings the rows back, and out[t] = P(sum over t's pairs of P(w * y)).
// Shapes: problems/050_moe_ep_wide/problem.json.
#include "reference/moe_dispatch.h"
#include "reference/moe_inputs.h"
#include "reference/registry.h"

namespace pkb::ref::p050 {
namespace {

// Per-rank data and weights, so a skipped all-to-all applies the wrong rank's MLP; the router
// keeps every token's top choices 2 logits apart so P and fp64 route alike (moe_inputs.cpp).
Tensors make_inputs(InputContext& ctx) {
  return moe::draw_separated_router_inputs(ctx, 2 * ctx.world());
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  return {{"out", moe::ep_moe_layer(comm, in, scalars.integer("top_k"))}};
}

}  // namespace

PKB_REGISTER_REFERENCE("050_moe_ep_wide", make_inputs, solve);

}  // namespace pkb::ref::p050
