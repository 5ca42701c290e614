// All-gather then GEMM: A = [A_0 | ... | A_{W-1}] (M, K) is split by columns over the ranks;
// rank r returns C = A @ B_r with its own B_r (K, N), fp32 accumulation rounded to P once.
// Shapes: problems/012_allgather_gemm/problem.json.
#include "reference/matmul_p.h"
#include "reference/registry.h"

namespace pkb::ref::p012 {
namespace {

// A and B are random and different on every rank: a rank that skips the gather multiplies zeros
// in place of the other ranks' columns of A.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t k = ctx.dim("K");
  return {{"A_local", ctx.randn({ctx.dim("M"), k / ctx.world()})},
          {"B", ctx.randn({k, ctx.dim("N")})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& block = in.at("A_local");
  at::Tensor blocks = at::empty({comm.size(), block.size(0), block.size(1)}, block.options());
  comm.all_gather(blocks, block);
  // (W, M, K/W) -> (M, W, K/W) -> (M, K): the columns of A in rank order.
  const at::Tensor a = blocks.permute({1, 0, 2}).reshape({block.size(0), -1});
  return {{"C", matmul_p(a, in.at("B"))}};
}

}  // namespace

PKB_REGISTER_REFERENCE("012_allgather_gemm", make_inputs, solve);

}  // namespace pkb::ref::p012
