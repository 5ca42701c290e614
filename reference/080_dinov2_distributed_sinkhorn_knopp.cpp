// DINOv2 distributed Sinkhorn-Knopp: Q = exp(teacher_output / temp)^T [Kp, Bl], B = sum of the
// ranks' sample counts. Q /= sum(Q over all ranks); then per iteration Q /= all-reduced row sums,
// Q /= Kp, Q /= local column sums, Q /= B; finally Q *= B and q = Q^T. fp32 whatever P is.
// Shapes: problems/080_dinov2_distributed_sinkhorn_knopp/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p080 {
namespace {

// randn * 0.2 (fp32; upstream uses 0.01) on every rank: the ranks' logits differ, so row sums taken
// without the all-reduce are off and move every output element by as much. At 0.01 the matrix is
// so near uniform that one Sinkhorn iteration instead of n_iterations passes at benchmark dims.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t rows = ctx.dim("Bl");
  const at::Tensor logits = at::randn({rows, ctx.dim("Kp")}, ctx.generator(), at::kFloat) * 0.2;
  return {{"teacher_output", ctx.place(logits, at::kFloat)},
          {"n_masked_patches_tensor", ctx.to_device(at::full({1}, rows, at::kLong))}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& logits = in.at("teacher_output");
  at::Tensor q = at::exp(logits / scalars.at("teacher_temp")).t();  // [Kp, Bl]
  at::Tensor num_samples = in.at("n_masked_patches_tensor").to(q.scalar_type());
  comm.all_reduce(num_samples, ReduceOp::sum);
  const std::int64_t num_prototypes = q.size(0);

  at::Tensor total = q.sum();
  comm.all_reduce(total, ReduceOp::sum);
  q = q / total;
  for (std::int64_t it = 0; it < scalars.integer("n_iterations"); ++it) {
    at::Tensor row_sums = q.sum(1, /*keepdim=*/true).contiguous();
    comm.all_reduce(row_sums, ReduceOp::sum);
    q = q / row_sums;
    q = q / num_prototypes;
    q = q / q.sum(0, /*keepdim=*/true);  // columns are this rank's samples: local
    q = q / num_samples;
  }
  q = q * num_samples;
  return {{"q", q.t().contiguous()}};
}

}  // namespace

PKB_REGISTER_REFERENCE("080_dinov2_distributed_sinkhorn_knopp", make_inputs, solve);

}  // namespace pkb::ref::p080
