// Distributed 2-D inverse real FFT (PhysicsNeMo): x holds rows r*Hh/W ... of a half spectrum
// X [Bt, C, Hh, Ww/2 + 1]. (1) Hermitian extension to Ww columns: all_gather the rows, then
// ext[h, j] = X[h, j] for j <= Ww/2 and conj(X[(Hh - h) mod Hh, Ww - j]) for j > Ww/2; keep this
// rank's rows. (2) ifft along the width (ortho). (3) all_to_all: column block j goes to rank j,
// blocks concatenated along the height in source-rank order. (4) ifft along the height (ortho).
// (5) real part: columns r*Ww/W ... of irfft2(X, s = (Hh, Ww), norm = ortho). Complex tensors
// are stored as a real trailing dimension (real, imag); communication moves those real views.
// Shapes: problems/060_physicsnemo_distributed_irfft/problem.json.
#include <ATen/CPUGeneratorImpl.h>

#include "reference/registry.h"

namespace pkb::ref::p060 {
namespace {

constexpr int kProblemId = 60;

// Upstream's shared seed: every rank draws the same real image, takes its orthonormal rfft2 and
// keeps its rows, so ranks hold different rows and a skipped gather or all_to_all is caught.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t height = ctx.dim("Hh"), rows = height / ctx.world();
  at::Generator shared = at::detail::createCPUGenerator(input_seed(kProblemId, 0, ctx.trial()));
  const at::Tensor image =
      at::randn({ctx.dim("B"), ctx.dim("C"), height, ctx.dim("Ww")}, shared, at::kFloat);
  const at::Tensor spectrum = at::fft_rfft2(image, c10::nullopt, {-2, -1}, "ortho");
  const at::Tensor mine = spectrum.narrow(2, ctx.rank() * rows, rows).contiguous();
  return {{"x", ctx.place(at::view_as_real(mine), at::kFloat)}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& x = in.at("x");  // [Bt, C, Hh/W, Ww/2 + 1, 2]
  const std::int64_t world = comm.size(), rank = comm.rank();
  const std::int64_t batch = x.size(0), channels = x.size(1), rows = x.size(2);
  const std::int64_t height = rows * world, freqs = x.size(3);
  const std::int64_t width = 2 * (freqs - 1), cols = width / world;  // Ww is even
  // (1) all rows, then the conjugate-symmetric upper columns.
  const at::Tensor gathered = at::empty({world, batch, channels, rows, freqs, 2}, x.options());
  comm.all_gather(gathered, x.contiguous());
  const at::Tensor spectrum = at::view_as_complex(
      gathered.permute({1, 2, 0, 3, 4, 5}).reshape({batch, channels, height, freqs, 2}));
  const at::Tensor mirrored_rows = at::remainder(
      -at::arange(height, x.options().dtype(at::kLong)), height);  // (Hh - h) mod Hh
  const at::Tensor upper = at::conj_physical(
      spectrum.index_select(2, mirrored_rows).narrow(3, 1, width - freqs).flip({3}));
  const at::Tensor extended =
      at::cat({spectrum, upper}, 3).narrow(2, rank * rows, rows);  // [Bt, C, Hh/W, Ww]
  // (2) width, then (3) column block j to rank j: [W, Bt, C, Hh/W, Ww/W, 2].
  const at::Tensor along_width = at::fft_ifft(extended, c10::nullopt, 3, "ortho");
  const at::Tensor send = at::view_as_real(
      along_width.view({batch, channels, rows, world, cols}).permute({3, 0, 1, 2, 4}).contiguous())
                              .contiguous();
  const at::Tensor received = at::empty_like(send);
  comm.all_to_all(received, send, {}, {});
  const at::Tensor columns = at::view_as_complex(
      received.permute({1, 2, 0, 3, 4, 5}).reshape({batch, channels, height, cols, 2}));
  // (4) height, (5) real part.
  const at::Tensor image = at::fft_ifft(columns, c10::nullopt, 2, "ortho");
  return {{"y", at::real(image).contiguous()}};
}

}  // namespace

PKB_REGISTER_REFERENCE("060_physicsnemo_distributed_irfft", make_inputs, solve);

}  // namespace pkb::ref::p060
