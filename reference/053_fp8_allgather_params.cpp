// fp8 parameter all-gather (delayed scaling): a = max|p| (this rank only); the amax history is
// rotated left by one and its last entry set to bf16(a); scale = max(history, 1e-12) (bf16, as
// fp32) / 448; recon = P(e4m3(fp32(p) / scale) * scale), and every rank returns all ranks'
// recon concatenated in rank order plus its own updated history.
// Shapes: problems/053_fp8_allgather_params/problem.json.
#include "reference/fp8.h"
#include "reference/registry.h"

namespace pkb::ref {
namespace {

constexpr double kE4m3Max = 448;

// Shards differ per rank (and so do their scales), so a skipped gather leaves other ranks'
// slices wrong. The history (upstream: all 1e-8) is U(0, 6) so that the scale comes sometimes
// from the history and sometimes from the new amax, and its first entry (rotated out) is 64,
// which a kernel that keeps it would pick up.
Tensors make_inputs(InputContext& ctx) {
  at::Tensor hist = at::rand({16}, ctx.generator()) * 6;
  hist[0] = 64;
  return {{"flat_param_shard", ctx.randn({ctx.dim("Psz")})},
          {"amax_history", ctx.place(hist, at::kBFloat16)}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& shard = in.at("flat_param_shard");
  // The scale is fp32 in every run (the fp64 one included), so the codes are the same.
  const at::Tensor amax = shard.to(at::kFloat).abs().max();
  at::Tensor hist = at::roll(in.at("amax_history"), -1);
  hist[-1] = amax.to(at::kBFloat16);
  const at::Tensor limit =
      hist.max().to(at::kFloat).clamp_min(1e-12).to(at::kBFloat16).to(at::kFloat);
  // A tensor divisor: CUDA turns division by a scalar into a multiply by its reciprocal.
  const at::Tensor scale = limit / at::full_like(limit, kE4m3Max);
  const at::Tensor codes = to_e4m3(shard.to(at::kFloat) / scale);
  const at::Tensor recon = (from_e4m3(codes) * scale).to(shard.scalar_type());

  at::Tensor full = at::empty({comm.size() * shard.size(0)}, shard.options());
  comm.all_gather(full, recon);
  return {{"full", full}, {"updated_hist", hist}};
}

}  // namespace

PKB_REGISTER_REFERENCE("053_fp8_allgather_params", make_inputs, solve);

}  // namespace pkb::ref
