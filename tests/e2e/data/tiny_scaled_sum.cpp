// y = sum over ranks of rnd_P(scale * x_r): the tiny problem tests/e2e/add_problem_test.sh adds with
// `pkb add-problem` and fills in with this file (KEY is replaced by the generated key).
#include "reference/registry.h"

namespace pkb::ref::pKEY {
namespace {

// Small integers per rank and trial: the sum is exact, and a skipped all-reduce returns scale * x_r.
Tensors make_inputs(InputContext& ctx) {
  return {{"x", ctx.randint(-8, 8, {ctx.dim("M"), ctx.dim("N")})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& x = in.at("x");
  at::Tensor y = (x.to(at::promote_types(x.scalar_type(), at::kFloat)) * scalars.at("scale")).to(x.scalar_type());
  comm.all_reduce(y, ReduceOp::sum);
  return {{"y", y}};
}

}  // namespace

PKB_REGISTER_REFERENCE("KEY", make_inputs, solve);

}  // namespace pkb::ref::pKEY
