// Negative scoring: pos (Np,) and neg (Np, K) are variable-size all-gathers (an all-reduce of the
// sizes, then an all-to-all sending the whole local tensor to every peer); with s = P(sigmoid(.)),
// ranks[i] = 1 + #{j : s(neg[i, j]) > s(pos[i])}. Shapes:
// problems/069_gnn_negative_scoring/problem.json.
#include "reference/gnn.h"
#include "reference/registry.h"

namespace pkb::ref::p069 {
namespace {

// randn rounded to a 1/4 grid in [-3, 3]: the grid's sigmoids stay distinct after rounding to any
// P, so the ranks are the same in P and in the fp64 rerun, while equal scores keep ties frequent.
// Scores differ per rank and trial, so skipped gathers or a stale trial change the ranks.
at::Tensor grid_scores(InputContext& ctx, at::IntArrayRef shape) {
  const at::Tensor drawn = at::randn(shape, ctx.generator()).mul(4).round().clamp(-12, 12).div(4);
  return ctx.place(drawn, ctx.dtype());
}

Tensors make_inputs(InputContext& ctx) {
  const std::int64_t rows = ctx.dim("M") / ctx.world() + ctx.rank() % 3;
  at::Tensor pos = grid_scores(ctx, {rows});
  at::Tensor neg = grid_scores(ctx, {rows, ctx.dim("K")});
  return {{"local_pos_scores", pos}, {"local_neg_scores", neg}};
}

at::Tensor gather_variable(Comm& comm, const at::Tensor& local) {
  const std::int64_t world = comm.size(), rows = local.size(0);
  at::Tensor sizes = at::zeros({world}, local.options().dtype(at::kLong));
  sizes[comm.rank()] = rows;
  comm.all_reduce(sizes, ReduceOp::sum);
  std::vector<std::int64_t> repeats(local.dim(), 1);
  repeats[0] = world;
  return gnn::exchange(comm, local.repeat(repeats), std::vector<std::int64_t>(world, rows),
                       gnn::host_list(sizes));
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor pos = gather_variable(comm, in.at("local_pos_scores"));
  const at::Tensor neg = gather_variable(comm, in.at("local_neg_scores"));
  const at::ScalarType p = pos.scalar_type(), wide = at::promote_types(p, at::kFloat);
  const at::Tensor pos_sig = at::sigmoid(pos.to(wide)).to(p);
  const at::Tensor neg_sig = at::sigmoid(neg.to(wide)).to(p);
  const at::Tensor ranks = neg_sig.gt(pos_sig.unsqueeze(1)).sum(1).add(1);

  // The declared length is sum over s of M/W + (s mod 3); a rank that skipped the size
  // all-reduce gathers fewer rows, and the zero padding makes it fail the check, not throw.
  const std::int64_t world = comm.size();
  const std::int64_t base = in.at("local_pos_scores").size(0) - comm.rank() % 3;
  std::int64_t declared = 0;
  for (std::int64_t s = 0; s < world; ++s) declared += base + s % 3;
  at::Tensor out = at::zeros({declared}, ranks.options());
  const std::int64_t filled = std::min(declared, ranks.size(0));
  out.narrow(0, 0, filled).copy_(ranks.narrow(0, 0, filled));
  return {{"ranks", out}};
}

}  // namespace

PKB_REGISTER_REFERENCE("069_gnn_negative_scoring", make_inputs, solve);

}  // namespace pkb::ref::p069
