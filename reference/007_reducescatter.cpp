// Reduce-scatter: every rank holds x[W*M, N]; rank r returns y = sum over s of x_s[r*M:(r+1)*M].
// Shapes: problems/007_reducescatter/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p007 {
namespace {

// Every row block differs, so a wrong block offset or a skipped reduction is caught.
Tensors make_inputs(InputContext& ctx) {
  return {{"x", ctx.randint(-8, 8, {ctx.world() * ctx.dim("M"), ctx.dim("N")})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& x = in.at("x");
  at::Tensor y = at::empty({x.size(0) / comm.size(), x.size(1)}, x.options());
  comm.reduce_scatter(y, x, ReduceOp::sum);
  return {{"y", y}};
}

}  // namespace

PKB_REGISTER_REFERENCE("007_reducescatter", make_inputs, solve);

}  // namespace pkb::ref::p007
