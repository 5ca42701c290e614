// GEMM + reduce-scatter (row-parallel linear): rank r multiplies C_r = P(A_r B_r) with fp32
// accumulation and returns rows [r*M/W, (r+1)*M/W) of C_0 + ... + C_{W-1}.
// Shapes and tolerances: problems/016_gemm_reducescatter/problem.json.
#include "reference/matmul_p.h"
#include "reference/registry.h"

namespace pkb::ref::p016 {
namespace {

// Standard normal and different on every rank: a partial is about N(0, K/W) and the sum about
// N(0, K), so a rank that skips the reduction returns one partial, far from the sum.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t k_local = ctx.dim("K") / ctx.world();
  at::Tensor a = ctx.randn({ctx.dim("M"), k_local});
  at::Tensor b = ctx.randn({k_local, ctx.dim("N")});
  return {{"A_local", a}, {"B_local", b}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& a = in.at("A_local");
  const at::Tensor& b = in.at("B_local");
  const at::Tensor partial = matmul_p(a, b);  // fp32 accumulation, rounded to P
  at::Tensor y = at::empty({partial.size(0) / comm.size(), partial.size(1)}, partial.options());
  comm.reduce_scatter(y, partial, ReduceOp::sum);
  return {{"y", y}};
}

}  // namespace

PKB_REGISTER_REFERENCE("016_gemm_reducescatter", make_inputs, solve);

}  // namespace pkb::ref::p016
