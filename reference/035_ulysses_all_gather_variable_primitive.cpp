// All-gather of tensors whose sizes along gather_dim may differ: gather every rank's shape
// (int64), then every rank's x, and concatenate along gather_dim in rank order. Here all shapes
// are equal, so out = [W*M, N]. Shapes: problems/035_*/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p035 {
namespace {

// Standard normal and different on every rank: a skipped gather loses the other ranks' rows (and
// their shapes), and a wrong rank order moves them.
Tensors make_inputs(InputContext& ctx) { return {{"x", ctx.randn({ctx.dim("M"), ctx.dim("N")})}}; }

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& x = in.at("x");
  const std::int64_t gather_dim = scalars.integer("gather_dim");
  const int world = comm.size();

  const at::Tensor shape = at::tensor(x.sizes().vec(), at::kLong).to(x.device());
  at::Tensor shapes = at::empty({world, x.dim()}, shape.options());
  comm.all_gather(shapes, shape);
  const at::Tensor rows = shapes.select(1, gather_dim).to(at::kCPU);

  // Comm's all-gather needs equal sizes: pad every rank's rows to the largest count, then trim.
  const at::Tensor mine = x.movedim(gather_dim, 0);
  const std::int64_t padded_rows = rows.max().item<std::int64_t>();
  std::vector<std::int64_t> padded_shape = mine.sizes().vec();
  padded_shape[0] = padded_rows;
  at::Tensor padded = at::zeros(padded_shape, x.options());
  padded.narrow(0, 0, mine.size(0)).copy_(mine);
  padded_shape.insert(padded_shape.begin(), world);
  at::Tensor gathered = at::empty(padded_shape, x.options());
  comm.all_gather(gathered, padded);

  // problem.json fixes every rank's shape to x's, so the result has W times x's rows; each rank's
  // rows land at the offset its gathered shape gives.
  std::vector<std::int64_t> out_shape = mine.sizes().vec();
  out_shape[0] *= world;
  at::Tensor out = at::zeros(out_shape, x.options());
  std::int64_t offset = 0;
  for (int source = 0; source < world; ++source) {
    const std::int64_t count = rows[source].item<std::int64_t>();
    out.narrow(0, offset, count).copy_(gathered[source].narrow(0, 0, count));
    offset += count;
  }
  return {{"out", out.movedim(0, gather_dim).contiguous()}};
}

}  // namespace

PKB_REGISTER_REFERENCE("035_ulysses_all_gather_variable_primitive", make_inputs, solve);

}  // namespace pkb::ref::p035
