// Gather to rank 0: rank 0 returns y[W, M, N] with y[s] = x_s; other ranks return y[1, M, N] = x.
// Shapes: problems/006_gather/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p006 {
namespace {

constexpr int kRoot = 0;

// Different per rank and position, so a wrong slot on the root is caught.
Tensors make_inputs(InputContext& ctx) {
  return {{"x", ctx.randint(-8, 8, {ctx.dim("M"), ctx.dim("N")})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& x = in.at("x");
  const bool root = comm.rank() == kRoot;
  at::Tensor y = root ? at::empty({comm.size(), x.size(0), x.size(1)}, x.options())
                      : x.unsqueeze(0).clone();
  comm.gather(y, x, kRoot);
  return {{"y", y}};
}

}  // namespace

PKB_REGISTER_REFERENCE("006_gather", make_inputs, solve);

}  // namespace pkb::ref::p006
