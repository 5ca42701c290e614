// All-reduce: every rank holds x[M, N] and returns y = x_0 + ... + x_{W-1}.
// Shapes, dtypes and tolerances: problems/001_allreduce/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p001 {
namespace {

// Small integers differ per rank, position and trial: sums over 8 ranks are exact in bf16, and a
// rank that skips the all-reduce returns x_r, which is far from the sum.
Tensors make_inputs(InputContext& ctx) {
  return {{"x", ctx.randint(-8, 8, {ctx.dim("M"), ctx.dim("N")})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  at::Tensor y = in.at("x").clone();  // inputs are read-only
  comm.all_reduce(y, ReduceOp::sum);
  return {{"y", y}};
}

}  // namespace

PKB_REGISTER_REFERENCE("001_allreduce", make_inputs, solve);

}  // namespace pkb::ref::p001
