// The two-layer MLP and Adam of problems 040-042; the contracts are in mlp_adam.h.
#include "reference/mlp_adam.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include <ATen/CPUGeneratorImpl.h>

#include "reference/matmul_p.h"

namespace pkb::ref::mlp_adam {

namespace {

// Views of `flat` in the shapes of the inputs w1, b1, w2, b2 (in that order).
std::vector<at::Tensor> unflatten(const at::Tensor& flat, const Tensors& in) {
  std::vector<at::Tensor> views;
  std::int64_t offset = 0;
  for (const char* name : kParamNames) {
    const at::Tensor& shape_of = in.at(name);
    views.push_back(flat.narrow(0, offset, shape_of.numel()).view(shape_of.sizes()));
    offset += shape_of.numel();
  }
  return views;
}

// The gradient of mean((o - y)^2) with respect to [w1 | b1 | w2 | b2], flattened, in P.
at::Tensor flat_grad(const at::Tensor& x, const at::Tensor& y, const at::Tensor& w1,
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

}  // namespace

at::Generator shared_generator(const InputContext& ctx) {
  return at::detail::createCPUGenerator(ctx.seed() - static_cast<std::uint64_t>(ctx.rank()));
}

at::Tensor draw_randn(at::Generator& gen, at::IntArrayRef shape) {
  return at::randn(shape, gen, at::TensorOptions().dtype(at::kFloat));
}

Tensors draw_data_and_params(InputContext& ctx, at::Generator& gen) {
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

Tensors draw_zero_inputs(InputContext& ctx) {
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

at::Tensor broadcast_flat(Comm& comm, const Tensors& in, const std::string& prefix) {
  std::vector<at::Tensor> pieces;
  for (const char* name : kParamNames) pieces.push_back(in.at(prefix + name).reshape(-1));
  at::Tensor flat = at::cat(pieces);
  comm.broadcast(flat, 0);
  return flat;
}

at::Tensor local_flat_grad(const at::Tensor& params, const Tensors& in) {
  const std::vector<at::Tensor> p = unflatten(params, in);
  return flat_grad(in.at("X_local"), in.at("y_local"), p[0], p[1], p[2], p[3]);
}

std::array<at::Tensor, 3> adam(const at::Tensor& param, const at::Tensor& grad,
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

void set_unflattened(Tensors& out, const std::string& prefix, const at::Tensor& flat,
                     const Tensors& in) {
  const std::vector<at::Tensor> views = unflatten(flat, in);
  for (std::size_t i = 0; i < views.size(); ++i)
    out.set(prefix + kParamNames[i] + "_new", views[i].clone());
}

Tensors zero_adam_all_gather(Comm& comm, const Tensors& in, const Scalars& scalars,
                             const at::Tensor& params, const at::Tensor& grad_part) {
  const std::int64_t part = grad_part.numel();
  const auto [new_part, m, v] = adam(params.narrow(0, comm.rank() * part, part), grad_part,
                                     in.at("exp_avg_part"), in.at("exp_avg_sq_part"), scalars);
  at::Tensor new_params = at::empty_like(params);
  comm.all_gather(new_params, new_part.contiguous());
  Tensors out;
  set_unflattened(out, "", new_params, in);
  out.set("exp_avg_part_new", m);
  out.set("exp_avg_sq_part_new", v);
  return out;
}

}  // namespace pkb::ref::mlp_adam
