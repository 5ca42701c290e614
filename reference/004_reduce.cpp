// Reduce to rank dst: y = x_0 + ... + x_{W-1} on dst; every other rank returns its own x
// (NCCL leaves non-root buffers unchanged). Shapes and scalars: problems/004_reduce/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p004 {
namespace {

// Different per rank: the root's sum differs from its own x, and a non-root rank that returns
// anything but its own x is caught.
Tensors make_inputs(InputContext& ctx) {
  return {{"x", ctx.randint(-8, 8, {ctx.dim("M"), ctx.dim("N")})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  at::Tensor y = in.at("x").clone();
  comm.reduce(y, static_cast<int>(scalars.integer("dst")), ReduceOp::sum);
  return {{"y", y}};
}

}  // namespace

PKB_REGISTER_REFERENCE("004_reduce", make_inputs, solve);

}  // namespace pkb::ref::p004
