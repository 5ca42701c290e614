// Hyena forward with context parallelism: x1, x2, v arrive as zigzag sequence shards (rank r holds
// chunks r and 2W-1-r of 2W) and go to channel shards by all-to-all; on its C/W channels, in natural
// token order: u = rnd_P(x2 v), y = rnd_P(causal_conv(h, u) + bias u) (rfft/irfft of length 2S),
// z = rnd_P(x1 y); z returns to zigzag sequence shards, transposed to (B, Ls, C).
// Shapes: problems/072_hyena_forward_cp/problem.json.
#include <cmath>

#include "reference/registry.h"

namespace pkb::ref::p072 {
namespace {

// x1, x2, v are random per rank: a skipped all-to-all leaves the other ranks' tokens (on the way
// in) or channels (on the way out) at zero. h and conv_bias are upstream's staircase, built by
// rounding exact integers to bf16 (round to nearest even), not by a bf16 arange; row c of h is
// divided by (c + 1) * sqrt(Lh) so that every channel's outputs are O(1): with upstream's rows
// (values near c) the large channels set a per-tensor error allowance that hides the skip term
// and whole low channels. conv_bias[c] = rnd_bf16(c) / C (upstream divides by 1024 = C), so the
// skip term stays visible at small C.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t batch = ctx.dim("B"), channels = ctx.dim("C"), local = ctx.dim("Ls");
  const std::int64_t taps = ctx.dim("Lh");
  Tensors in{{"x1_seq", ctx.randn({batch, channels, local})},
             {"x2_seq", ctx.randn({batch, channels, local})},
             {"v_seq", ctx.randn({batch, channels, local})}};
  const at::Tensor steps =
      at::arange(channels * taps, at::kFloat).to(at::kBFloat16).to(at::kDouble);
  const at::Tensor row_scale = at::arange(1, channels + 1, at::kDouble).view({channels, 1}) *
                               std::sqrt(static_cast<double>(taps));
  in.set("h", ctx.place(steps.view({channels, taps}) / static_cast<double>(taps) / row_scale,
                        ctx.dtype()));
  const at::Tensor bias = at::arange(channels, at::kFloat).to(at::kBFloat16).to(at::kFloat);
  in.set("conv_bias", ctx.place(bias / static_cast<double>(channels), ctx.dtype()));
  return in;
}

// (B, C, Ls) zigzag sequence shard -> (B, C/W, S) channel shard in natural token order.
at::Tensor seq_to_channels(Comm& comm, const at::Tensor& x) {
  const std::int64_t world = comm.size(), batch = x.size(0), block = x.size(1) / world;
  const std::int64_t local = x.size(2), half = local / 2;
  const at::Tensor send = x.reshape({batch, world, block, local}).transpose(0, 1).contiguous();
  const at::Tensor received = at::empty_like(send);  // source s holds chunks s and 2W-1-s
  comm.all_to_all(received, send, {}, {});
  const at::Tensor chunks = received.view({world, batch, block, 2, half});
  const at::Tensor first = chunks.select(3, 0).permute({1, 2, 0, 3});          // chunks 0 .. W-1
  const at::Tensor second = chunks.flip({0}).select(3, 1).permute({1, 2, 0, 3});  // W .. 2W-1
  return at::cat({first, second}, 2).reshape({batch, block, world * local});
}

// (B, C/W, S) channel shard in natural order -> (B, C, Ls) zigzag sequence shard.
at::Tensor channels_to_seq(Comm& comm, const at::Tensor& z) {
  const std::int64_t world = comm.size(), batch = z.size(0), block = z.size(1);
  const std::int64_t half = z.size(2) / (2 * world);
  const at::Tensor chunks = z.reshape({batch, block, 2 * world, half});
  const at::Tensor pairs = at::stack(
      {chunks.narrow(2, 0, world), chunks.narrow(2, world, world).flip({2})}, 3);
  const at::Tensor send = pairs.permute({2, 0, 1, 3, 4}).contiguous();  // (W dest, B, C/W, 2, Ls/2)
  const at::Tensor received = at::empty_like(send);                     // (W channel blocks, ...)
  comm.all_to_all(received, send, {}, {});
  return received.permute({1, 0, 2, 3, 4}).reshape({batch, world * block, 2 * half});
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::ScalarType dtype = in.at("x1_seq").scalar_type();
  const at::ScalarType compute = at::promote_types(dtype, at::kFloat);
  const at::Tensor x1 = seq_to_channels(comm, in.at("x1_seq"));
  const at::Tensor x2 = seq_to_channels(comm, in.at("x2_seq"));
  const at::Tensor v = seq_to_channels(comm, in.at("v_seq"));
  const std::int64_t block = x1.size(1), total = x1.size(2), first = comm.rank() * block;

  const at::Tensor u = (x2.to(compute) * v.to(compute)).to(dtype).to(compute);
  const at::Tensor filter = in.at("h").narrow(0, first, block).to(compute);
  const at::Tensor bias = in.at("conv_bias").narrow(0, first, block).to(compute).view({1, -1, 1});
  // Length 2S >= S + Lh - 1 for W >= 2: the circular convolution does not wrap.
  const std::int64_t n = 2 * total;
  const at::Tensor spectrum = at::fft_rfft(u, n) * at::fft_rfft(filter, n);
  const at::Tensor conv = at::fft_irfft(spectrum, n).narrow(-1, 0, total);
  const at::Tensor y = (conv + bias * u).to(dtype);
  const at::Tensor z = (x1.to(compute) * y.to(compute)).to(dtype);

  return {{"z", channels_to_seq(comm, z).transpose(1, 2).contiguous()}};
}

}  // namespace

PKB_REGISTER_REFERENCE("072_hyena_forward_cp", make_inputs, solve);

}  // namespace pkb::ref::p072
