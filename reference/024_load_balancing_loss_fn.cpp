// Load-balancing loss (Switch/Mixtral auxiliary loss): probs = softmax(gate_logits) in P,
// f[k, e] = share of tokens whose k-th choice (top-k of probs) is e, mean_prob[e] = mean over
// tokens of probs (rounded to P); L_r = E * sum f[k, e] * mean_prob[e]; loss = mean over ranks
// of L_r. Shapes: problems/024_load_balancing_loss_fn/problem.json.
#include <cmath>

#include "reference/registry.h"

namespace pkb::ref::p024 {
namespace {

// Standard normal logits, plus a bias of strength a_t * (r + 1) / W on one expert per rank (drawn):
// rank losses then grow with r (2 for even routing, up to 7 here), so a rank that skips the
// all-reduce returns its own loss, not the mean. a_t = 1.5 + 3 * frac(0.618 * t) jumps by at
// least 1.1 from one trial to the next, so another trial's inputs give another mean; random
// biases alone left the mean within the tolerance in 5-15% of trial pairs.
Tensors make_inputs(InputContext& ctx) {
  const double golden = (std::sqrt(5.0) - 1) / 2;
  const double strength =
      (1.5 + 3 * std::fmod(ctx.trial() * golden, 1.0)) * (ctx.rank() + 1) / ctx.world();
  const std::int64_t favourite =
      at::randint(0, 8, {1}, ctx.generator(), at::kLong).item<std::int64_t>();
  at::Tensor logits =
      at::randn({ctx.dim("M"), 8}, ctx.generator(), at::TensorOptions().dtype(at::kFloat));
  logits.select(1, favourite).add_(strength);
  return {{"gate_logits", ctx.place(logits, ctx.dtype())}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& gate_logits = in.at("gate_logits");
  const std::int64_t num_experts = scalars.integer("num_experts");
  // fp32 where the spec says fp32, fp64 in the fp64 run.
  const at::ScalarType acc = at::promote_types(gate_logits.scalar_type(), at::kFloat);

  const at::Tensor probs = at::softmax(gate_logits, -1);  // in P, computed in fp32
  const at::Tensor selected = std::get<1>(at::topk(probs, scalars.integer("top_k"), -1));
  const at::Tensor tokens_per_expert =
      at::one_hot(selected, num_experts).to(acc).mean(0);  // [k, E]
  const at::Tensor prob_per_expert = probs.mean(0);        // [E], rounded to P
  at::Tensor loss = (tokens_per_expert * prob_per_expert.unsqueeze(0)).sum() * num_experts;
  comm.all_reduce(loss, ReduceOp::sum);
  return {{"loss", loss / comm.size()}};
}

}  // namespace

PKB_REGISTER_REFERENCE("024_load_balancing_loss_fn", make_inputs, solve);

}  // namespace pkb::ref::p024
