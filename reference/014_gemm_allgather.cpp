// GEMM then all-gather: rank r computes C_r = P(A_r @ B_r) (M, N/W), fp32 accumulation; every
// rank returns [C_0 | C_1 | ... | C_{W-1}] (M, W * (N/W)).
// Shapes: problems/014_gemm_allgather/problem.json.
#include "reference/matmul_p.h"
#include "reference/registry.h"

namespace pkb::ref::p014 {
namespace {

// A and B are random and different on every rank: a rank that skips the gather has zeros in the
// other ranks' column blocks, and gathering B to multiply by the local A gives wrong blocks.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t k = ctx.dim("K");
  return {{"A", ctx.randn({ctx.dim("M"), k})}, {"B", ctx.randn({k, ctx.dim("N") / ctx.world()})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor c_local = matmul_p(in.at("A"), in.at("B"));
  at::Tensor blocks = at::empty({comm.size(), c_local.size(0), c_local.size(1)}, c_local.options());
  comm.all_gather(blocks, c_local);
  // (W, M, N/W) -> (M, W, N/W) -> (M, W * N/W): the blocks side by side in rank order.
  return {{"C", blocks.permute({1, 0, 2}).reshape({c_local.size(0), -1})}};
}

}  // namespace

PKB_REGISTER_REFERENCE("014_gemm_allgather", make_inputs, solve);

}  // namespace pkb::ref::p014
