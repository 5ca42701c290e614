// fp8 gradient reduce-scatter (delayed scaling): a = max|g| (this rank only); the amax history
// is rotated left by one and its last entry set to bf16(a); scale = max(history, 1e-12) (bf16,
// as fp32) / 448; each rank sends recon = P(e4m3(fp32(g) / scale) * scale), and rank r returns
// (sum over s of recon_s[r*Psz : (r+1)*Psz]) / W in P plus its updated history. The scaling is
// fp8_scaling.h's. Shapes: problems/052_fp8_reduce_scatter_grads/problem.json.
#include "reference/fp8_scaling.h"
#include "reference/registry.h"

namespace pkb::ref::p052 {
namespace {

// Gradients differ per rank, so a skipped reduce-scatter leaves only the own share. The history
// is make_amax_history's, built to catch a kernel that scales from the wrong entries.
Tensors make_inputs(InputContext& ctx) {
  const at::Tensor hist = make_amax_history(ctx);
  return {{"flat_grads", ctx.randn({ctx.world() * ctx.dim("Psz")})}, {"amax_history", hist}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& grads = in.at("flat_grads");
  const DelayedScalingResult scaled = fp8_delayed_scaling(grads, in.at("amax_history"));
  at::Tensor shard = at::empty({grads.size(0) / comm.size()}, grads.options());
  comm.reduce_scatter(shard, scaled.recon, ReduceOp::sum);
  const at::Tensor world = at::full({}, comm.size(), grads.options());
  return {{"out_shard", shard / world}, {"updated_hist", scaled.history}};
}

}  // namespace

PKB_REGISTER_REFERENCE("052_fp8_reduce_scatter_grads", make_inputs, solve);

}  // namespace pkb::ref::p052
