// LayerNorm backward, parameter gradients: per rank d_beta_r = P(sum over rows of dY) and
// d_gamma_r = P(sum over rows of P(dY * X_hat)), fp32 accumulation; both all-reduced (sum) over
// ranks, d_beta first. Shapes and tolerances: problems/009_layernorm_backward/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p009 {
namespace {

// Random and different on every rank: a rank that skips an all-reduce returns its own partial,
// which is far from the sum over ranks.
Tensors make_inputs(InputContext& ctx) {
  const auto fp32 = at::TensorOptions().dtype(at::kFloat);
  at::Tensor x = at::randn({ctx.dim("M"), ctx.dim("N")}, ctx.generator(), fp32);
  x = x / (at::linalg_vector_norm(x, 2, {1}, /*keepdim=*/true) + 1e-5);  // unit-norm rows
  at::Tensor x_hat = ctx.place(x, ctx.dtype());
  return {{"X_hat", x_hat}, {"dY", ctx.randn({ctx.dim("M"), ctx.dim("N")})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& x_hat = in.at("X_hat");
  const at::Tensor& dy = in.at("dY");
  const at::ScalarType p = dy.scalar_type();
  // Half types accumulate in fp32; the fp64 check run keeps fp64.
  const at::ScalarType acc = p == at::kDouble ? at::kDouble : at::kFloat;
  at::Tensor d_beta = dy.sum(0, /*keepdim=*/false, acc).to(p);
  at::Tensor d_gamma = (dy * x_hat).sum(0, /*keepdim=*/false, acc).to(p);
  comm.all_reduce(d_beta, ReduceOp::sum);
  comm.all_reduce(d_gamma, ReduceOp::sum);
  return {{"d_gamma", d_gamma}, {"d_beta", d_beta}};
}

}  // namespace

PKB_REGISTER_REFERENCE("009_layernorm_backward", make_inputs, solve);

}  // namespace pkb::ref::p009
