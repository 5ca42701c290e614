// Importance-sampling policy-gradient loss: ce = cross_entropy(hidden * weight^T, labels),
// delta = clamp(-ce - old_logprobs, -20, 20), ratio = exp(delta), per_token_loss =
// -(ratio * adv); loss = global mean of per_token_loss (plus and minus a local surrogate); metrics
// = global mean ratio, min and max ratio, mean of ratio - delta - 1 (k3) and mean ce, over valid
// tokens. Per-token steps in P. Shapes: problems/025_importance_sampling_loss/problem.json.
#include <cmath>
#include <limits>

#include "reference/registry.h"

namespace pkb::ref::p025 {
namespace {

constexpr double kMaxLogRatio = 20;

// Logits of std t_r (t_r from 0.5 on rank 0 to 1.5 on rank W-1) and old log-probabilities
// centred on the expected new ones, -(ln V + t_r^2 / 2): ratios are of order 1 and their
// distribution differs by rank, as does the share of ignored labels ((r mod 4) / 8), so a rank
// that skips a reduction returns its own means, minimum and maximum, not the global ones.
Tensors make_inputs(InputContext& ctx) {
  const auto fp32 = at::TensorOptions().dtype(at::kFloat);
  const std::int64_t rows = ctx.dim("M");
  const std::int64_t width = ctx.dim("N");
  const std::int64_t vocab = ctx.dim("V");
  const double spread = 0.5 + static_cast<double>(ctx.rank()) / (ctx.world() - 1);
  at::Generator& gen = ctx.generator();

  const at::Tensor hidden = at::randn({rows, width}, gen, fp32) * (spread / std::sqrt(width));
  const at::Tensor weight = at::randn({vocab, width}, gen, fp32);
  const at::Tensor drawn = at::randint(0, vocab, {rows}, gen, fp32.dtype(at::kLong));
  const at::Tensor ignored = at::rand({rows}, gen, fp32) < (ctx.rank() % 4) / 8.0;
  const at::Tensor labels = at::where(ignored, at::full_like(drawn, -100), drawn);
  const double expected_logprob = -(std::log(static_cast<double>(vocab)) + spread * spread / 2);
  const at::Tensor old_logprobs = expected_logprob + 0.5 * at::randn({rows}, gen, fp32);
  const at::Tensor advantages = at::randn({rows}, gen, fp32);
  return {{"hidden", ctx.place(hidden, ctx.dtype())},
          {"weight", ctx.place(weight, ctx.dtype())},
          {"labels", ctx.place(labels, at::kLong)},
          {"old_logprobs", ctx.place(old_logprobs, ctx.dtype())},
          {"advantages", ctx.place(advantages, ctx.dtype())}};
}

at::Tensor global_sum(Comm& comm, at::Tensor local) {
  comm.all_reduce(local, ReduceOp::sum);
  return local;
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& labels = in.at("labels");
  const at::Tensor& advantages = in.at("advantages");
  const std::int64_t ignore_index = scalars.integer("ignore_index");
  // fp32 where the spec says fp32, fp64 in the fp64 run.
  const at::ScalarType acc = at::promote_types(advantages.scalar_type(), at::kFloat);

  // Logits in P; the log-softmax runs in fp32 on them and rounds to P; ignored tokens give 0.
  const at::Tensor logits = at::matmul(in.at("hidden"), in.at("weight").t());
  const at::Tensor ce =
      at::cross_entropy_loss(logits, labels, {}, at::Reduction::None, ignore_index);
  const at::Tensor new_logprobs = -ce;
  const at::Tensor valid = labels != ignore_index;
  const at::Tensor count = global_sum(comm, valid.sum().to(acc)).clamp_min(1);

  const at::Tensor zero = at::zeros_like(ce);
  const at::Tensor delta = at::where(valid, new_logprobs - in.at("old_logprobs"), zero)
                               .clamp(-kMaxLogRatio, kMaxLogRatio);
  const at::Tensor ratio = delta.exp();
  const at::Tensor weighted = at::where(valid, ratio * advantages, zero);
  const at::Tensor per_token_loss = at::where(valid, -(ratio * advantages), zero);

  const at::Tensor true_pg = global_sum(comm, per_token_loss.sum()) / count;
  const at::Tensor surrogate = (weighted * ce).sum() / count;  // local: not reduced
  const at::Tensor loss = (true_pg + surrogate) - surrogate;

  const double inf = std::numeric_limits<double>::infinity();
  at::Tensor min_ratio = at::where(valid, ratio, at::full_like(ratio, inf)).min();
  comm.all_reduce(min_ratio, ReduceOp::min);
  at::Tensor max_ratio = at::where(valid, ratio, at::full_like(ratio, -inf)).max();
  comm.all_reduce(max_ratio, ReduceOp::max);
  const at::Tensor metrics = at::stack({
      global_sum(comm, at::where(valid, ratio, zero).sum()) / count,
      min_ratio.to(acc),
      max_ratio.to(acc),
      global_sum(comm, at::where(valid, ratio - delta - 1, zero).sum()) / count,
      global_sum(comm, ce.sum()) / count,
  });
  return {{"loss", loss},
          {"per_token_logprobs", new_logprobs},
          {"per_token_loss", per_token_loss},
          {"metrics", metrics}};
}

}  // namespace

PKB_REGISTER_REFERENCE("025_importance_sampling_loss", make_inputs, solve);

}  // namespace pkb::ref::p025
