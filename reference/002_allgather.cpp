// All-gather: every rank holds x[M, N] and returns y[W, M, N] with y[s] = x_s (stacked).
// Shapes, dtypes and tolerances: problems/002_allgather/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p002 {
namespace {

// Random per rank and position, so a wrong slot or a missing rank shows.
Tensors make_inputs(InputContext& ctx) {
  return {{"x", ctx.randint(-8, 8, {ctx.dim("M"), ctx.dim("N")})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& x = in.at("x");
  at::Tensor y = at::empty({comm.size(), x.size(0), x.size(1)}, x.options());
  comm.all_gather(y, x);
  return {{"y", y}};
}

}  // namespace

PKB_REGISTER_REFERENCE("002_allgather", make_inputs, solve);

}  // namespace pkb::ref::p002
