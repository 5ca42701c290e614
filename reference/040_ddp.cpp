// One DDP step of a two-layer ReLU MLP: broadcast rank 0's parameters and Adam moments, local
// forward and backward of mean((o - y)^2), all-reduce SUM of the flat gradient then / W, Adam.
// Shapes, scalars and tolerances: problems/040_ddp/problem.json; the math: reference/mlp_adam.h.
#include "reference/mlp_adam.h"
#include "reference/registry.h"

namespace pkb::ref::p040 {
namespace {

using mlp_adam::kParamNames;

// Shared seed: the data rows are slices of one matrix and the parameters and moments are rank
// 0's draws, zeros elsewhere, so a rank that skips a broadcast trains zeros (or zero moments)
// and a rank that skips the all-reduce steps on its own gradient only.
Tensors make_inputs(InputContext& ctx) {
  at::Generator gen = mlp_adam::shared_generator(ctx);
  Tensors drawn = mlp_adam::draw_data_and_params(ctx, gen);
  Tensors inputs{{"X_local", ctx.place(drawn.at("X_local"), ctx.dtype())},
                 {"y_local", ctx.place(drawn.at("y_local"), ctx.dtype())}};
  for (const char* name : kParamNames) inputs.set(name, ctx.place(drawn.at(name), ctx.dtype()));
  const auto keep_on_root = [&](const at::Tensor& t) {
    return ctx.place(ctx.rank() == 0 ? t : at::zeros_like(t), ctx.dtype());
  };
  for (const char* name : kParamNames)
    inputs.set(std::string("exp_avg_") + name,
               keep_on_root(mlp_adam::draw_randn(gen, drawn.at(name).sizes())));
  for (const char* name : kParamNames)
    inputs.set(std::string("exp_avg_sq_") + name,
               keep_on_root(at::rand(drawn.at(name).sizes(), gen,
                                     at::TensorOptions().dtype(at::kFloat))));
  return inputs;
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor params = mlp_adam::broadcast_flat(comm, in, "");
  const at::Tensor exp_avg = mlp_adam::broadcast_flat(comm, in, "exp_avg_");
  const at::Tensor exp_avg_sq = mlp_adam::broadcast_flat(comm, in, "exp_avg_sq_");

  at::Tensor grad = mlp_adam::local_flat_grad(params, in);
  comm.all_reduce(grad, ReduceOp::sum);
  grad = grad / static_cast<double>(comm.size());

  const auto [new_params, new_m, new_v] =
      mlp_adam::adam(params, grad, exp_avg, exp_avg_sq, scalars);
  Tensors out;
  mlp_adam::set_unflattened(out, "", new_params, in);
  mlp_adam::set_unflattened(out, "exp_avg_", new_m, in);
  mlp_adam::set_unflattened(out, "exp_avg_sq_", new_v, in);
  return out;
}

}  // namespace

PKB_REGISTER_REFERENCE("040_ddp", make_inputs, solve);

}  // namespace pkb::ref::p040
