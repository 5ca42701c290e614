// Muon's Newton-Schulz orthogonalisation of a column-sharded matrix X [R, C] (rank r holds
// columns [r C/W, (r+1) C/W)), in fp32: Y = X / max(||X||_F, 1e-7) with the squared norm
// all-reduced; then `steps` times, with (a, b, c) from the quintic table, G = all_reduce_sum(Y Y^T)
// [R, R], Y <- a Y + (b G + c G G) Y on the local columns. Returns rnd_bf16(Y).
// Shapes: problems/086_tp_muon_orthogonalization/problem.json.
#include <array>

#include "reference/registry.h"

namespace pkb::ref::p086 {
namespace {

// Upstream's quintic coefficients (a, b, c), used in turn (steps is a multiple of 5).
constexpr std::array<std::array<double, 3>, 5> kQuintic = {{{4.0848, -6.8946, 2.9270},
                                                            {3.9505, -6.3029, 2.6377},
                                                            {3.7418, -5.5913, 2.3037},
                                                            {2.8769, -3.1427, 1.2046},
                                                            {2.8366, -3.0525, 1.2012}}};
constexpr double kNormFloor = 1e-7;

// Different randn on every rank (with upstream's 0.01 * rank offset): a rank that skips the
// Gram all-reduce orthogonalises its own columns alone, and one that skips the norm starts from
// a matrix too large by about sqrt(W), whose small singular values do not converge in 5 steps.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t cols = (ctx.dim("C") + ctx.world() - 1) / ctx.world();
  const at::Tensor x = at::randn({ctx.dim("R"), cols}, ctx.generator()) + 0.01 * ctx.rank();
  return {{"x", ctx.place(x, at::kBFloat16)}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& x = in.at("x");
  at::Tensor y = x.to(at::promote_types(x.scalar_type(), at::kFloat));
  at::Tensor norm_sq = (y * y).sum();
  comm.all_reduce(norm_sq, ReduceOp::sum);
  y = y / norm_sq.sqrt().clamp_min(kNormFloor);
  for (std::int64_t step = 0; step < scalars.integer("steps"); ++step) {
    const auto& [a, b, c] = kQuintic[step % kQuintic.size()];
    at::Tensor gram = at::matmul(y, y.t());
    comm.all_reduce(gram, ReduceOp::sum);
    const at::Tensor update = b * gram + c * at::matmul(gram, gram);
    y = a * y + at::matmul(update, y);
  }
  return {{"y", y.to(x.scalar_type())}};
}

}  // namespace

PKB_REGISTER_REFERENCE("086_tp_muon_orthogonalization", make_inputs, solve);

}  // namespace pkb::ref::p086
