// GEMM then all-reduce: C = sum over ranks s of P(A_s @ B_s), each product accumulated in fp32 and
// rounded to P before the cross-rank sum. Shapes: problems/013_gemm_allreduce/problem.json.
#include "reference/registry.h"

namespace pkb::ref {
namespace {

// P(a @ b): fp32 accumulation, rounded to P once. cuBLAS does that for half types natively; ATen's
// CPU matmul has no fp16 kernel, so on the CPU half types are multiplied in fp32 explicitly.
at::Tensor matmul_p(const at::Tensor& a, const at::Tensor& b) {
  const at::ScalarType p = a.scalar_type();
  if (a.is_cuda() || (p != at::kHalf && p != at::kBFloat16)) return at::matmul(a, b);
  return at::matmul(a.to(at::kFloat), b.to(at::kFloat)).to(p);
}

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

}  // namespace pkb::ref
