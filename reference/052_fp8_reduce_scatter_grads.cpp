// fp8 gradient reduce-scatter (delayed scaling): a = max|g| (this rank only); the amax history
// is rotated left by one and its last entry set to bf16(a); scale = max(history, 1e-12) (bf16,
// as fp32) / 448; each rank sends recon = P(e4m3(fp32(g) / scale) * scale), and rank r returns
// (sum over s of recon_s[r*Psz : (r+1)*Psz]) / W in P plus its updated history.
// Shapes: problems/052_fp8_reduce_scatter_grads/problem.json.
#include "reference/fp8.h"
#include "reference/registry.h"

namespace pkb::ref {
namespace {

constexpr double kE4m3Max = 448;

// Gradients differ per rank, so a skipped reduce-scatter leaves only the own share. The history
// (upstream: all 1e-8) is U(0, 6) so that the scale comes sometimes from the history and
// sometimes from the new amax, and its first entry (rotated out) is 64, which a kernel that
// keeps it would pick up.
Tensors make_inputs(InputContext& ctx) {
  at::Tensor hist = at::rand({16}, ctx.generator()) * 6;
  hist[0] = 64;
  return {{"flat_grads", ctx.randn({ctx.world() * ctx.dim("Psz")})},
          {"amax_history", ctx.place(hist, at::kBFloat16)}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& grads = in.at("flat_grads");
  // The scale is fp32 in every run (the fp64 one included), so the codes are the same.
  const at::Tensor amax = grads.to(at::kFloat).abs().max();
  at::Tensor hist = at::roll(in.at("amax_history"), -1);
  hist[-1] = amax.to(at::kBFloat16);
  const at::Tensor limit =
      hist.max().to(at::kFloat).clamp_min(1e-12).to(at::kBFloat16).to(at::kFloat);
  // A tensor divisor: CUDA turns division by a scalar into a multiply by its reciprocal.
  const at::Tensor scale = limit / at::full_like(limit, kE4m3Max);
  const at::Tensor codes = to_e4m3(grads.to(at::kFloat) / scale);
  const at::Tensor recon = (from_e4m3(codes) * scale).to(grads.scalar_type());

  at::Tensor shard = at::empty({grads.size(0) / comm.size()}, grads.options());
  comm.reduce_scatter(shard, recon, ReduceOp::sum);
  const at::Tensor world = at::full({}, comm.size(), grads.options());
  return {{"out_shard", shard / world}, {"updated_hist", hist}};
}

}  // namespace

PKB_REGISTER_REFERENCE("052_fp8_reduce_scatter_grads", make_inputs, solve);

}  // namespace pkb::ref
