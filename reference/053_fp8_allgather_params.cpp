// fp8 parameter all-gather (delayed scaling): a = max|p| (this rank only); the amax history is
// rotated left by one and its last entry set to bf16(a); scale = max(history, 1e-12) (bf16, as
// fp32) / 448; recon = P(e4m3(fp32(p) / scale) * scale), and every rank returns all ranks'
// recon concatenated in rank order plus its own updated history. The scaling is fp8_scaling.h's.
// Shapes: problems/053_fp8_allgather_params/problem.json.
#include "reference/fp8_scaling.h"
#include "reference/registry.h"

namespace pkb::ref::p053 {
namespace {

// Shards differ per rank (and so do their scales), so a skipped gather leaves other ranks'
// slices wrong. The history is make_amax_history's, built to catch a kernel that scales from the
// wrong entries.
Tensors make_inputs(InputContext& ctx) {
  const at::Tensor hist = make_amax_history(ctx);
  return {{"flat_param_shard", ctx.randn({ctx.dim("Psz")})}, {"amax_history", hist}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& shard = in.at("flat_param_shard");
  const DelayedScalingResult scaled = fp8_delayed_scaling(shard, in.at("amax_history"));
  at::Tensor full = at::empty({comm.size() * shard.size(0)}, shard.options());
  comm.all_gather(full, scaled.recon);
  return {{"full", full}, {"updated_hist", scaled.history}};
}

}  // namespace

PKB_REGISTER_REFERENCE("053_fp8_allgather_params", make_inputs, solve);

}  // namespace pkb::ref::p053
