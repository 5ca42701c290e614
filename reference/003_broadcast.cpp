// Broadcast from rank 0: every rank returns y = x_0.
// Shapes, dtypes and tolerances: problems/003_broadcast/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p003 {
namespace {

constexpr int kRoot = 0;  // upstream's default source

// Different on every rank, so a rank that keeps its own x is caught.
Tensors make_inputs(InputContext& ctx) {
  return {{"x", ctx.randint(-8, 8, {ctx.dim("M"), ctx.dim("N")})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  at::Tensor y = in.at("x").clone();
  comm.broadcast(y, kRoot);
  return {{"y", y}};
}

}  // namespace

PKB_REGISTER_REFERENCE("003_broadcast", make_inputs, solve);

}  // namespace pkb::ref::p003
