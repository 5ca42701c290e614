// Kimi delta attention with context parallelism (CP: all-gather of the sequence) and a TP pair sum:
//   decay = exp(lower_bound * sigmoid(e^{a_log[h]} (g + dt_bias[h, :]))) per key dimension,
//   beta = sigmoid(beta_raw), q^ = normalize(q) Dk^-1/2, k^ = normalize(k) (eps 1e-12);
//   o = rnd_P(delta-rule recurrence over the full gathered sequence, in fp32);
//   out = sum over the TP group of o[:, c*Tl : (c+1)*Tl] (c = CP rank), in P.
// Shapes and groups: problems/074_fla_kimi_delta_attention_cp_tp/problem.json.
#include "reference/delta_rule.h"
#include "reference/registry.h"

namespace pkb::ref::p074 {
namespace {

// Every rank's q, k, v, g, beta differ. g is drawn as randn - 6 (upstream: randn) so the
// per-step decay is about 0.99 instead of about 0.08: the state built from earlier CP ranks'
// tokens still shapes this rank's outputs, so a skipped all-gather changes them; the TP partner's
// different inputs make a skipped all-reduce visible.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t batch = ctx.dim("Bt"), tokens = ctx.dim("Tl"), heads = ctx.dim("Hh");
  const std::int64_t dk = ctx.dim("Dk"), dv = ctx.dim("Dv");
  Tensors in;
  in.set("q", ctx.randn({batch, tokens, heads, dk}));
  in.set("k", ctx.randn({batch, tokens, heads, dk}));
  in.set("v", ctx.randn({batch, tokens, heads, dv}));
  in.set("g", ctx.place(at::randn({batch, tokens, heads, dk}, ctx.generator()) - 6.0, ctx.dtype()));
  in.set("beta", ctx.randn({batch, tokens, heads}));
  in.set("a_log", ctx.place(at::linspace(-0.1, 0.1, heads), at::kBFloat16));
  in.set("dt_bias", ctx.place(at::linspace(-0.1, 0.1, heads * dk), at::kBFloat16));
  return in;
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  Comm& cp = comm.group("cp");
  Comm& tp = comm.group("tp");
  // [B, Tl, ...] -> [B, cp*Tl, ...], CP ranks' blocks in order.
  auto gather_sequence = [&cp](const at::Tensor& x) {
    if (cp.size() == 1) return x;
    std::vector<std::int64_t> shape = x.sizes().vec();
    shape.insert(shape.begin(), cp.size());
    at::Tensor gathered = at::empty(shape, x.options());
    cp.all_gather(gathered, x.contiguous());
    return at::cat(gathered.unbind(0), 1);
  };
  const at::Tensor& q_local = in.at("q");
  const at::ScalarType compute = at::promote_types(q_local.scalar_type(), at::kFloat);
  const std::int64_t tokens = q_local.size(1), heads = q_local.size(2), dk = q_local.size(3);

  const at::Tensor q = gather_sequence(q_local).to(compute);
  const at::Tensor k = gather_sequence(in.at("k")).to(compute);
  const at::Tensor v = gather_sequence(in.at("v")).to(compute);
  const at::Tensor g = gather_sequence(in.at("g")).to(compute);
  const at::Tensor beta = gather_sequence(in.at("beta")).to(compute).sigmoid();

  const at::Tensor rate = in.at("a_log").to(compute).exp().view({heads, 1});
  const at::Tensor bias = in.at("dt_bias").to(compute).view({heads, dk});
  const at::Tensor decay = (scalars.at("lower_bound") * (rate * (g + bias)).sigmoid()).exp();
  const at::Tensor q_hat = l2_normalize(q, 1e-12) * (1.0 / std::sqrt(static_cast<double>(dk)));
  const at::Tensor k_hat = l2_normalize(k, 1e-12);
  const at::Tensor o =
      delta_rule_recurrence(q_hat, k_hat, v, decay, beta).to(q_local.scalar_type());

  at::Tensor out = o.narrow(1, cp.rank() * tokens, tokens).contiguous();
  if (tp.size() > 1) tp.all_reduce(out, ReduceOp::sum);
  return {{"o", out}};
}

}  // namespace

PKB_REGISTER_REFERENCE("074_fla_kimi_delta_attention_cp_tp", make_inputs, solve);

}  // namespace pkb::ref::p074
