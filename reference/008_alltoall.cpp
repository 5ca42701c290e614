// All-to-all with equal splits: rank r holds x[W, M, N]; slot s of its output holds the slice
// rank s addressed to r: y_r[s] = x_s[r]. Shapes: problems/008_alltoall/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p008 {
namespace {

// Every slice differs, so swapping source and destination indices is caught.
Tensors make_inputs(InputContext& ctx) {
  return {{"x", ctx.randint(-8, 8, {ctx.world(), ctx.dim("M"), ctx.dim("N")})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& x = in.at("x");
  at::Tensor y = at::empty_like(x);
  comm.all_to_all(y, x, {}, {});
  return {{"y", y}};
}

}  // namespace

PKB_REGISTER_REFERENCE("008_alltoall", make_inputs, solve);

}  // namespace pkb::ref::p008
