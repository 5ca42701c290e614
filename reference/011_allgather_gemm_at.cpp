// All-gather then GEMM, through A^T: A = [A_0 | ... | A_{W-1}] (M, K) is split by columns over the
// ranks; rank r returns C = A @ B_r with its own B_r (K, N), fp32 accumulation rounded to P once.
// The blocks travel transposed: A^T (K, M) is the row blocks A_s^T stacked in rank order, and
// C = (B_r^T @ A^T)^T. Shapes: problems/011_allgather_gemm_at/problem.json.
#include "reference/matmul_p.h"
#include "reference/registry.h"

namespace pkb::ref::p011 {
namespace {

// A and B are random and different on every rank: a rank that skips the gather multiplies zeros
// in place of the other ranks' columns of A.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t k = ctx.dim("K");
  return {{"A_local", ctx.randn({ctx.dim("M"), k / ctx.world()})},
          {"B", ctx.randn({k, ctx.dim("N")})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor block_t = in.at("A_local").t().contiguous();
  at::Tensor a_t = at::empty({comm.size() * block_t.size(0), block_t.size(1)}, block_t.options());
  comm.all_gather(a_t, block_t);
  return {{"C", matmul_p(in.at("B").t(), a_t).t().contiguous()}};
}

}  // namespace

PKB_REGISTER_REFERENCE("011_allgather_gemm_at", make_inputs, solve);

}  // namespace pkb::ref::p011
