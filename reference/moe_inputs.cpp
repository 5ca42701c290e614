// moe_inputs: see the header; each draw here was written out in the problems it serves.
#include "reference/moe_inputs.h"

#include <cmath>
#include <stdexcept>

namespace pkb::ref::moe {
namespace {

constexpr int kMaxRedraws = 100;  // a redraw clears most near-ties; 100 failing means a bug

}  // namespace

Tensors draw_randn_router_inputs(InputContext& ctx, std::int64_t experts) {
  const std::int64_t rows = ctx.dim("M"), width = ctx.dim("N"), inner = ctx.dim("I");
  at::Generator& gen = ctx.generator();
  const at::TensorOptions fp32 = at::TensorOptions().dtype(at::kFloat);
  auto uniform = [&](at::IntArrayRef shape, std::int64_t fan_in) {
    const double bound = 1.0 / std::sqrt(static_cast<double>(fan_in));
    return ctx.place(at::rand(shape, gen, fp32) * (2 * bound) - bound, ctx.dtype());
  };
  Tensors in{{"hidden_states", at::randn({rows, width}, gen, fp32)}};
  in.set("gate_weight", at::randn({experts, width}, gen, fp32));
  in.set("gate_bias", at::randn({experts}, gen, fp32));
  in.set("gate_proj_weight", uniform({inner, width}, width));
  in.set("gate_proj_bias", uniform({inner}, width));
  in.set("up_proj_weight", uniform({inner, width}, width));
  in.set("up_proj_bias", uniform({inner}, width));
  in.set("down_proj_weight", uniform({width, inner}, inner));
  in.set("down_proj_bias", uniform({width}, inner));
  return in;
}

// Near-tied tokens have 2nd and 3rd router logits (exact, from the P-rounded inputs) closer
// than rounding the logits and probabilities to P can move them (2^-7 relative, plus a bf16 ulp
// of the probability ratio; the margin doubles both). They route differently in P and in the
// checker's fp64 rerun, and one flip makes the reference's own error as large as the output,
// which would let a skipped all-to-all pass.
void redraw_near_ties(InputContext& ctx, Tensors& in) {
  at::Tensor hidden = in.at("hidden_states");
  const auto rounded = [&](const at::Tensor& t) { return t.to(ctx.dtype()).to(at::kDouble); };
  const at::Tensor gate_weight = rounded(in.at("gate_weight"));
  const at::Tensor gate_bias = rounded(in.at("gate_bias"));
  for (int attempt = 0; attempt < kMaxRedraws; ++attempt) {
    const at::Tensor logits = at::matmul(rounded(hidden), gate_weight.t()) + gate_bias;
    const at::Tensor top = std::get<0>(at::topk(logits, 3, -1));
    const at::Tensor second = top.select(1, 1), third = top.select(1, 2);
    const at::Tensor margin =
        at::maximum(second.abs(), third.abs()) * std::ldexp(1.0, -6) + std::ldexp(1.0, -5);
    const at::Tensor ambiguous = (second - third) < margin;
    const std::int64_t count = ambiguous.sum().item<std::int64_t>();
    if (count == 0) {
      for (const char* name : {"hidden_states", "gate_weight", "gate_bias"})
        in.set(name, ctx.place(in.at(name), ctx.dtype()));
      return;
    }
    hidden.index_put_({ambiguous},
                      at::randn({count, hidden.size(1)}, ctx.generator(), hidden.options()));
  }
  throw std::runtime_error("moe: router near-ties remain after redrawing");
}

// Upstream's randn router makes exact probability ties in P common, which flips experts between
// the P run and the fp64 one; here columns 0..E-1 of every token hold a random permutation of
// 0, 0.25, .., (E-1)/4 and the router is 8 I (plus 1e-3 noise, bias 1e-2), so logits are 2 apart
// and the routing is the same in every precision while still differing token by token.
Tensors draw_separated_router_inputs(InputContext& ctx, std::int64_t experts) {
  const std::int64_t tokens = ctx.dim("M"), hidden = ctx.dim("N"), inter = ctx.dim("I");
  at::Generator& gen = ctx.generator();
  auto uniform = [&](at::IntArrayRef shape, double bound) {
    return ctx.place((at::rand(shape, gen) * 2 - 1) * bound, ctx.dtype());
  };
  at::Tensor x = at::randn({tokens, hidden}, gen);
  x.narrow(1, 0, experts)
      .copy_(
          at::rand({tokens, experts}, gen).argsort(/*dim=*/1, /*descending=*/false).to(at::kFloat) *
          0.25);
  at::Tensor gate_weight = at::randn({experts, hidden}, gen) * 1e-3;
  gate_weight.narrow(1, 0, experts).add_(at::eye(experts) * 8);
  const at::Tensor gate_bias = at::randn({experts}, gen) * 1e-2;
  Tensors in{{"hidden_states", ctx.place(x, ctx.dtype())},
             {"gate_weight", ctx.place(gate_weight, ctx.dtype())},
             {"gate_bias", ctx.place(gate_bias, ctx.dtype())}};
  const double bound_n = 1 / std::sqrt(double(hidden)), bound_i = 1 / std::sqrt(double(inter));
  in.set("gate_proj_weight", uniform({inter, hidden}, bound_n));
  in.set("gate_proj_bias", uniform({inter}, bound_n));
  in.set("up_proj_weight", uniform({inter, hidden}, bound_n));
  in.set("up_proj_bias", uniform({inter}, bound_n));
  in.set("down_proj_weight", uniform({hidden, inter}, bound_i));
  in.set("down_proj_bias", uniform({hidden}, bound_i));
  return in;
}

void set_equal_splits(InputContext& ctx, std::int64_t routed, std::int64_t experts, Tensors& in) {
  const std::int64_t world = ctx.world();
  TORCH_CHECK(routed % world == 0, "W must divide the ", routed, " routed rows for equal splits");
  const at::Tensor splits = at::full({world}, routed / world, at::kLong);
  const at::Tensor chunk =
      (at::arange(experts, at::kLong) < routed % experts).to(at::kLong) + routed / experts;
  in.set("in_splits", ctx.place(splits, at::kLong));
  in.set("out_splits", ctx.place(splits, at::kLong));
  in.set("tab", ctx.place(chunk.view({world, experts / world}), at::kLong));
}

}  // namespace pkb::ref::moe
