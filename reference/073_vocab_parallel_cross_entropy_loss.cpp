// Vocab-parallel cross-entropy (Megatron style): rank r holds vocabulary ids [r V/W, (r+1) V/W)
// of logits [Bt, T, V]. m = all_reduce_max(row max); z = rnd_P(logits - m) (on a copy: inputs
// are read-only); pred = all_reduce_sum(z[target] on the owning rank, else 0);
// se = all_reduce_sum(rnd_P(sum_v rnd_P(exp z_v))) (fp32 accumulation); loss = rnd_P(log se) - pred.
// Shapes: problems/073_vocab_parallel_cross_entropy_loss/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p073 {
namespace {

// Different randn on every rank: a rank that skips the max uses its own row max, one that
// skips the sums sees only its share of the exponentials (log se too small by about log W) and
// no target logit unless it owns the target. Targets follow upstream's rule (no RNG).
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t bt = ctx.dim("Bt"), t = ctx.dim("T"), v = ctx.dim("V");
  const at::Tensor position = at::arange(bt * t, at::kLong);
  const at::Tensor target = ((position * 13 + 7 + ctx.trial()) % v).reshape({bt, t});
  return {{"logits", ctx.randn({bt, t, v / ctx.world()})}, {"target", ctx.place(target, at::kLong)}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& logits = in.at("logits");
  const at::ScalarType dtype = logits.scalar_type();
  const at::ScalarType acc = at::promote_types(dtype, at::kFloat);
  const std::int64_t vocab_local = logits.size(2);

  at::Tensor row_max = std::get<0>(logits.to(acc).max(-1)).to(dtype);  // exact in P
  comm.all_reduce(row_max, ReduceOp::max);
  const at::Tensor shifted = logits - row_max.unsqueeze(-1);

  const at::Tensor local_target = in.at("target") - comm.rank() * vocab_local;
  const at::Tensor owned = (local_target >= 0) & (local_target < vocab_local);
  const at::Tensor picked =
      shifted.gather(-1, local_target.clamp(0, vocab_local - 1).unsqueeze(-1)).squeeze(-1);
  at::Tensor predicted = at::where(owned, picked, at::zeros_like(picked));
  comm.all_reduce(predicted, ReduceOp::sum);

  at::Tensor sum_exp = shifted.to(acc).exp().to(dtype).to(acc).sum(-1).to(dtype);
  comm.all_reduce(sum_exp, ReduceOp::sum);
  return {{"loss", sum_exp.to(acc).log().to(dtype) - predicted}};
}

}  // namespace

PKB_REGISTER_REFERENCE("073_vocab_parallel_cross_entropy_loss", make_inputs, solve);

}  // namespace pkb::ref::p073
