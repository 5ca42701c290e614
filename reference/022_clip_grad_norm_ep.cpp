// Gradient-norm clipping with expert-parallel parameters: ep <- P(ep / ep_size); total =
// (sum over ranks of ||fp32(non_ep)||_p^p + ||fp32(ep)||_p^p)^(1/p), the dense part all-reduced
// over the world and the expert part over EP-FSDP then EP; if total > max_norm both gradients
// become g * P(max_norm / total). Shapes, groups: problems/022_clip_grad_norm_ep/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p022 {
namespace {

// Standard normal and different on every rank: skipping every all-reduce leaves a rank's own
// shards (a norm off by about sqrt(W)); skipping only the EP or the EP-FSDP sum moves it by
// 1.5% or more, well past the fp32 tolerance.
Tensors make_inputs(InputContext& ctx) {
  at::Tensor non_ep = ctx.randn({ctx.dim("M"), ctx.dim("N")});
  at::Tensor ep = ctx.randn({ctx.dim("M"), ctx.dim("N")});
  return {{"non_ep_grad", non_ep}, {"ep_grad", ep}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const double p = scalars.at("norm_type");
  const double max_norm = scalars.at("max_norm");
  Comm& ep_group = comm.group("ep");
  Comm& ep_fsdp_group = comm.group("ep_fsdp");
  const int ep_size = ep_group.size();

  const at::Tensor& non_ep = in.at("non_ep_grad");
  const at::Tensor ep = ep_size > 1 ? in.at("ep_grad") * (1.0 / ep_size) : in.at("ep_grad");
  const at::ScalarType dtype = non_ep.scalar_type();
  // fp32 norms (fp64 when the checker reruns the reference in fp64).
  const at::ScalarType stats_type = at::promote_types(dtype, at::kFloat);

  at::Tensor dense = at::linalg_vector_norm(non_ep.to(stats_type), p).pow(p);
  comm.all_reduce(dense, ReduceOp::sum);
  at::Tensor expert = at::linalg_vector_norm(ep.to(stats_type), p).pow(p);
  ep_fsdp_group.all_reduce(expert, ReduceOp::sum);
  ep_group.all_reduce(expert, ReduceOp::sum);
  const at::Tensor total_norm = (dense + expert).pow(1.0 / p);

  // The gradients are inout: new tensors stand for upstream's in-place update.
  const bool clip = total_norm.item<double>() > max_norm;
  const at::Tensor coef = (max_norm / total_norm).to(dtype);  // converted to P, as on the GPU
  return {{"total_norm", total_norm},
          {"non_ep_grad", clip ? non_ep * coef : non_ep.clone()},
          {"ep_grad", clip ? ep * coef : ep.clone()}};
}

}  // namespace

PKB_REGISTER_REFERENCE("022_clip_grad_norm_ep", make_inputs, solve);

}  // namespace pkb::ref::p022
