// Adam on a shard, then unshard: p_r <- Adam(p_r, g_r, m_r, v_r) with every element-wise step in
// fp32 rounded once to P (no weight decay), then master = all_gather of the p_r in rank order.
// Shapes, scalars, step order: problems/043_fused_adam_grad_unshard_allgather/problem.json.
#include <ATen/CPUGeneratorImpl.h>

#include "reference/adam_rounded.h"
#include "reference/registry.h"

namespace pkb::ref::p043 {
namespace {

constexpr int kProblemId = 43;

// Shared seed: every rank draws the same full gradient and master vectors (rank 0's generator
// for the trial) and keeps slice r, so each shard differs and a skipped all-gather leaves the
// other ranks' slices wrong.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t shard =
      std::max<std::int64_t>(64, std::min<std::int64_t>(64 * ctx.dim("M"), 4096));
  at::Generator shared = at::detail::createCPUGenerator(input_seed(kProblemId, 0, ctx.trial()));
  const auto fp32 = at::TensorOptions().dtype(at::kFloat);
  const at::Tensor grad = at::randn({ctx.world() * shard}, shared, fp32);
  const at::Tensor master = at::randn({ctx.world() * shard}, shared, fp32);
  const std::int64_t start = ctx.rank() * shard;
  return {{"grad_shard", ctx.place(grad.slice(0, start, start + shard), ctx.dtype())},
          {"master_shard", ctx.place(master.slice(0, start, start + shard), ctx.dtype())},
          {"exp_avg", ctx.place(at::zeros({shard}, fp32), ctx.dtype())},
          {"exp_avg_sq", ctx.place(at::zeros({shard}, fp32), ctx.dtype())}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& p = in.at("master_shard");
  const at::ScalarType dtype = p.scalar_type();
  // Each op computes in fp32 (fp64 in the checker's fp64 rerun) and rounds once to P.
  const at::ScalarType acc = at::promote_types(dtype, at::kFloat);
  const auto up = [&](const at::Tensor& t) { return t.to(acc); };

  const AdamRounded adam =
      adam_rounded(in.at("grad_shard"), in.at("exp_avg"), in.at("exp_avg_sq"), scalars);
  const at::Tensor update = (up(adam.direction) * -scalars.at("lr")).to(dtype);
  const at::Tensor new_shard = (up(p) + up(update)).to(dtype).contiguous();

  at::Tensor master = at::empty({comm.size() * new_shard.numel()}, new_shard.options());
  comm.all_gather(master, new_shard);
  return {{"master", master}};
}

}  // namespace

PKB_REGISTER_REFERENCE("043_fused_adam_grad_unshard_allgather", make_inputs, solve);

}  // namespace pkb::ref::p043
