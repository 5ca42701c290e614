// Ulysses all-to-all, gather heads and scatter the sequence: x_r[B, T, H, D] is zero-padded to
// T' = ceil(T/W)*W positions; rank r returns out_r[b, t, s*H + i, d] = x_s[b, r*T'/W + t, i, d].
// Shapes: problems/037_ulysses_gather_heads_scatter_seq/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p037 {
namespace {

// Standard normal and different on every rank, so a skipped exchange (a rank keeping its own
// heads in every slot) or blocks taken from the wrong source rank change the output.
Tensors make_inputs(InputContext& ctx) {
  return {{"x", ctx.randn({ctx.dim("B"), ctx.dim("T"), ctx.dim("H"), ctx.dim("D")})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& x = in.at("x");
  const std::int64_t world = comm.size();
  const std::int64_t batch = x.size(0), seq = x.size(1), heads = x.size(2), head_dim = x.size(3);
  const std::int64_t block = (seq + world - 1) / world;
  at::Tensor padded = at::zeros({batch, block * world, heads, head_dim}, x.options());
  padded.narrow(1, 0, seq).copy_(x);
  // Sequence block j becomes row j of dim 0, the axis all_to_all splits.
  const at::Tensor send =
      padded.view({batch, world, block, heads, head_dim}).permute({1, 0, 2, 3, 4}).contiguous();
  at::Tensor received = at::empty_like(send);
  comm.all_to_all(received, send, {}, {});
  // received[s] came from rank s: its heads go to slots s*H .. s*H + H - 1.
  at::Tensor out = received.permute({1, 2, 0, 3, 4}).reshape({batch, block, world * heads, head_dim});
  return {{"out", out}};
}

}  // namespace

PKB_REGISTER_REFERENCE("037_ulysses_gather_heads_scatter_seq", make_inputs, solve);

}  // namespace pkb::ref::p037
