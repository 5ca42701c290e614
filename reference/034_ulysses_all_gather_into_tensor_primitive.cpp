// All-gather into one tensor: out = concat(x_0, ..., x_{W-1}) by rows, the same on every rank.
// Shapes: problems/034_ulysses_all_gather_into_tensor_primitive/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p034 {
namespace {

// Standard normal and different on every rank: a skipped gather leaves the other ranks' rows
// zero, and a wrong rank order moves them.
Tensors make_inputs(InputContext& ctx) { return {{"x", ctx.randn({ctx.dim("M"), ctx.dim("N")})}}; }

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& x = in.at("x");
  at::Tensor out = at::empty({comm.size() * x.size(0), x.size(1)}, x.options());
  comm.all_gather(out, x.contiguous());
  return {{"out", out}};
}

}  // namespace

PKB_REGISTER_REFERENCE("034_ulysses_all_gather_into_tensor_primitive", make_inputs, solve);

}  // namespace pkb::ref::p034
