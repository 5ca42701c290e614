// Scatter from rank 0: rank 0 holds chunks[W, M, N]; rank r returns y = chunks_0[r].
// Other ranks' chunks input is empty. Shapes: problems/005_scatter/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p005 {
namespace {

constexpr int kRoot = 0;

// Every chunk differs, so a rank that receives the wrong chunk (or none) is caught.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t chunks = ctx.rank() == kRoot ? ctx.world() : 0;
  return {{"chunks", ctx.randint(-8, 8, {chunks, ctx.dim("M"), ctx.dim("N")})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& chunks = in.at("chunks");
  at::Tensor y = at::empty({chunks.size(1), chunks.size(2)}, chunks.options());
  comm.scatter(y, chunks, kRoot);
  return {{"y", y}};
}

}  // namespace

PKB_REGISTER_REFERENCE("005_scatter", make_inputs, solve);

}  // namespace pkb::ref::p005
