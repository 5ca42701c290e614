// Shared by problems 040-042 (DDP, ZeRO-1, ZeRO-2): the two-layer MLP's inputs, its backward
// pass written out (no autograd) and the Adam step, with the catalogue's rounding points:
// every GEMM and bias add rounds once to P, every element-wise op rounds to P.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include "reference/inputs.h"
#include "reference/matmul_p.h"
#include "reference/tensors.h"

namespace pkb::ref::mlp_adam {

inline const char* const kParamNames[] = {"w1", "b1", "w2", "b2"};

/// A generator seeded as rank 0's: every rank draws the same stream (the catalogue's shared seed).
inline at::Generator shared_generator(const InputContext& ctx) {
  return at::detail::createCPUGenerator(ctx.seed() - static_cast<std::uint64_t>(ctx.rank()));
}

inline at::Tensor draw_randn(at::Generator& gen, at::IntArrayRef shape) {
  return at::randn(shape, gen, at::TensorOptions().dtype(at::kFloat));
}

/// This rank's rows of the shared X [M, D_IN] and y [M, D_OUT], then the parameters (drawn on
/// every rank, kept only on rank 0: the others hold zeros until the broadcast), as fp32.
inline Tensors draw_data_and_params(InputContext& ctx, at::Generator& gen) {
  const std::int64_t rows = ctx.dim("M") / ctx.world(), d_in = ctx.dim("D_IN");
  const std::int64_t hid = ctx.dim("HID"), d_out = ctx.dim("D_OUT");
  Tensors drawn;
  drawn.set("X_local", draw_randn(gen, {ctx.dim("M"), d_in}).narrow(0, ctx.rank() * rows, rows));
  drawn.set("y_local", draw_randn(gen, {ctx.dim("M"), d_out}).narrow(0, ctx.rank() * rows, rows));
  const std::vector<std::vector<std::int64_t>> shapes = {{hid, d_in}, {hid}, {d_out, hid}, {d_out}};
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    at::Tensor param = draw_randn(gen, shapes[i]);
    drawn.set(kParamNames[i], ctx.rank() == 0 ? param : at::zeros_like(param));
  }
  return drawn;
}

/// Inputs of the ZeRO problems (041, 042): the data and parameters above in P, and this rank's
/// partition of shared random Adam moments (normal first, uniform [0, 1) second moments) over
/// the flat [w1 | b1 | w2 | b2] vector, which W must divide.
inline Tensors draw_zero_inputs(InputContext& ctx) {
  at::Generator gen = shared_generator(ctx);
  const Tensors drawn = draw_data_and_params(ctx, gen);
  Tensors inputs;
  std::int64_t total = 0;
  for (const char* name : {"X_local", "y_local", "w1", "b1", "w2", "b2"}) {
    inputs.set(name, ctx.place(drawn.at(name), ctx.dtype()));
    if (name[0] == 'w' || name[0] == 'b') total += drawn.at(name).numel();
  }
  TORCH_CHECK(total % ctx.world() == 0, "ZeRO: ", total, " parameters do not split over W = ",
              ctx.world());
  const std::int64_t part = total / ctx.world();
  const at::Tensor exp_avg = draw_randn(gen, {total});
  const at::Tensor exp_avg_sq = at::rand({total}, gen, at::TensorOptions().dtype(at::kFloat));
  inputs.set("exp_avg_part", ctx.place(exp_avg.narrow(0, ctx.rank() * part, part), ctx.dtype()));
  inputs.set("exp_avg_sq_part",
             ctx.place(exp_avg_sq.narrow(0, ctx.rank() * part, part), ctx.dtype()));
  return inputs;
}

/// Views of `flat` in the shapes of the inputs w1, b1, w2, b2 (in that order).
inline std::vector<at::Tensor> unflatten(const at::Tensor& flat, const Tensors& in) {
  std::vector<at::Tensor> views;
  std::int64_t offset = 0;
  for (const char* name : kParamNames) {
    const at::Tensor& shape_of = in.at(name);
    views.push_back(flat.narrow(0, offset, shape_of.numel()).view(shape_of.sizes()));
    offset += shape_of.numel();
  }
  return views;
}

/// The flat gradient [w1 | b1 | w2 | b2] in P of the local loss mean((o - y)^2), where
/// o = P(relu(P(x w1^T + b1)) w2^T + b2); relu'(0) = 0.
inline at::Tensor flat_grad(const at::Tensor& x, const at::Tensor& y, const at::Tensor& w1,
                            const at::Tensor& b1, const at::Tensor& w2, const at::Tensor& b2) {
  const at::ScalarType p = x.scalar_type();
  const at::ScalarType acc = at::promote_types(p, at::kFloat);  // fp64 in the checker's rerun
  const at::Tensor pre = (at::matmul(x.to(acc), w1.to(acc).t()) + b1.to(acc)).to(p);
  const at::Tensor h = at::relu(pre);
  const at::Tensor o = (at::matmul(h.to(acc), w2.to(acc).t()) + b2.to(acc)).to(p);
  const at::Tensor d_o = (o - y) * (2.0 / static_cast<double>(o.numel()));
  const at::Tensor d_pre = matmul_p(d_o, w2).masked_fill(pre <= 0, 0);
  return at::cat({matmul_p(d_pre.t(), x).reshape(-1), d_pre.to(acc).sum(0).to(p),
                  matmul_p(d_o.t(), h).reshape(-1), d_o.to(acc).sum(0).to(p)});
}

/// One Adam step (no weight decay) on new tensors, op by op in P: returns {param, m, v}.
inline std::array<at::Tensor, 3> adam(const at::Tensor& param, const at::Tensor& grad,
                                      const at::Tensor& exp_avg, const at::Tensor& exp_avg_sq,
                                      const Scalars& s) {
  const double beta1 = s.at("beta1"), beta2 = s.at("beta2"), step = s.at("step");
  const at::Tensor m = at::add(exp_avg * beta1, grad, 1.0 - beta1);
  const at::Tensor v = at::addcmul(exp_avg_sq * beta2, grad, grad, 1.0 - beta2);
  const at::Tensor m_hat = m / (1.0 - std::pow(beta1, step));
  const at::Tensor v_hat = v / (1.0 - std::pow(beta2, step));
  const at::Tensor denom = v_hat.sqrt() + s.at("eps");
  return {param + (m_hat / denom) * (-s.at("lr")), m, v};
}

}  // namespace pkb::ref::mlp_adam
