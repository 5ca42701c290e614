// Gradient-norm clipping over FSDP shards: total = (sum over ranks and the three gradients of
// ||fp32(g)||_p^p)^(1/p), all-reduced in fp32; if total > max_norm, every g becomes
// g * P(max_norm / total). Shapes and tolerances: problems/021_clip_grad_norm_no_ep/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p021 {
namespace {

const char* const kGradNames[] = {"grad_0", "grad_1", "grad_2"};

// Standard normal and different on every rank: a rank that skips the all-reduce sees only its
// own shards, so its norm (and its clip coefficient) is off by about sqrt(W).
Tensors make_inputs(InputContext& ctx) {
  Tensors inputs;
  for (const char* name : kGradNames) inputs.set(name, ctx.randn({ctx.dim("M"), ctx.dim("N")}));
  return inputs;
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const double p = scalars.at("norm_type");
  const double max_norm = scalars.at("max_norm");
  const at::ScalarType dtype = in.at(kGradNames[0]).scalar_type();
  // fp32 norms (fp64 when the checker reruns the reference in fp64).
  const at::ScalarType stats_type = at::promote_types(dtype, at::kFloat);

  at::Tensor local = at::zeros({}, in.at(kGradNames[0]).options().dtype(stats_type));
  for (const char* name : kGradNames)
    local += at::linalg_vector_norm(in.at(name).to(stats_type), p).pow(p);
  comm.all_reduce(local, ReduceOp::sum);
  const at::Tensor total_norm = local.pow(1.0 / p);

  // The gradients are inout: new tensors stand for upstream's in-place update.
  Tensors out{{"total_norm", total_norm}};
  const bool clip = total_norm.item<double>() > max_norm;
  const at::Tensor coef = (max_norm / total_norm).to(dtype);  // converted to P, as on the GPU
  for (const char* name : kGradNames)
    out.set(name, clip ? in.at(name) * coef : in.at(name).clone());
  return out;
}

}  // namespace

PKB_REGISTER_REFERENCE("021_clip_grad_norm_no_ep", make_inputs, solve);

}  // namespace pkb::ref::p021
