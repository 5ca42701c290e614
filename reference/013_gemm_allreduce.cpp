// GEMM then all-reduce: C = sum over ranks s of P(A_s @ B_s), each product accumulated in fp32 and
// rounded to P before the cross-rank sum. Shapes: problems/013_gemm_allreduce/problem.json.
#include "reference/matmul_p.h"
#include "reference/registry.h"

namespace pkb::ref::p013 {
namespace {

// Random and different on every rank: a rank that skips the all-reduce returns its own product,
// far from the sum.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t k = ctx.dim("K");
  return {{"A_local", ctx.randn({ctx.dim("M"), k})}, {"B_local", ctx.randn({k, ctx.dim("N")})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  at::Tensor c = matmul_p(in.at("A_local"), in.at("B_local"));
  comm.all_reduce(c, ReduceOp::sum);
  return {{"C", c}};
}

}  // namespace

PKB_REGISTER_REFERENCE("013_gemm_allreduce", make_inputs, solve);

}  // namespace pkb::ref::p013
