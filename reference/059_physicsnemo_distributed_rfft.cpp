// Distributed 2-D real FFT (PhysicsNeMo): x_full [B, Hh, Ww] is split by columns (rank r holds
// columns r*Ww/W ...). y1 = fft(x, dim 1, ortho) (complex, all rows of the rank's columns); an
// all_to_all regroups it so rank r holds rows r*Hh/W ... with all columns (blocks concatenated
// along the width in source-rank order); y2 = fft(dim 2, ortho), truncated to Ww/2 + 1 columns.
// Result: rows r*Hh/W ... of rfft2(x_full, norm = ortho). Complex tensors are stored as a real
// trailing dimension (real, imag); communication moves those real views. P is ignored.
// Shapes: problems/059_physicsnemo_distributed_rfft/problem.json.
#include <ATen/CPUGeneratorImpl.h>

#include "reference/registry.h"

namespace pkb::ref::p059 {
namespace {

constexpr int kProblemId = 59;

// Upstream's shared seed: every rank draws the same x_full (fp32) and keeps its columns, so the
// ranks' slices differ and a skipped all_to_all leaves this rank with its own columns only.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t width = ctx.dim("Ww"), local = width / ctx.world();
  at::Generator shared = at::detail::createCPUGenerator(input_seed(kProblemId, 0, ctx.trial()));
  const at::Tensor full = at::randn({ctx.dim("B"), ctx.dim("Hh"), width}, shared, at::kFloat);
  return {{"x", ctx.place(full.narrow(2, ctx.rank() * local, local), at::kFloat)}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& x = in.at("x");  // [B, Hh, Ww/W], real
  const std::int64_t world = comm.size(), batch = x.size(0), height = x.size(1);
  const std::int64_t rows = height / world, cols = x.size(2), width = cols * world;
  const at::Tensor y1 = at::fft_fft(x, c10::nullopt, 1, "ortho");  // [B, Hh, Ww/W]
  // Row block j goes to rank j: [W, B, Hh/W, Ww/W, 2].
  const at::Tensor send =
      at::view_as_real(y1.view({batch, world, rows, cols}).permute({1, 0, 2, 3}).contiguous())
          .contiguous();
  const at::Tensor received = at::empty_like(send);
  comm.all_to_all(received, send, {}, {});
  // Source s's columns land at s*Ww/W: [B, Hh/W, W, Ww/W, 2] -> [B, Hh/W, Ww].
  const at::Tensor rows_full =
      at::view_as_complex(received.permute({1, 2, 0, 3, 4}).reshape({batch, rows, width, 2}));
  const at::Tensor y2 = at::fft_fft(rows_full, c10::nullopt, 2, "ortho");
  return {{"X", at::view_as_real(y2.narrow(2, 0, width / 2 + 1).contiguous()).contiguous()}};
}

}  // namespace

PKB_REGISTER_REFERENCE("059_physicsnemo_distributed_rfft", make_inputs, solve);

}  // namespace pkb::ref::p059
