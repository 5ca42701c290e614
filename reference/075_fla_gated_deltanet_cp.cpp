// Gated DeltaNet with Ulysses context parallelism: all-to-alls move q, k, v, gate, beta from
// sequence shards [Bt, Tl, H, .] to head shards [Bt, W*Tl, H/W, .]; then, in fp32, per local head
//   decay = exp(-e^{a[h]} softplus(gate + dt_bias[h])) (one scalar per token and head),
//   q^ = normalize(q) Dk^-1/2, k^ = normalize(k) (eps 1e-6), o = rnd_P(delta-rule recurrence);
// and an all-to-all moves o back to sequence shards [Bt, Tl, H, Dv].
// Shapes: problems/075_fla_gated_deltanet_cp/problem.json.
#include "reference/delta_rule.h"
#include "reference/registry.h"

namespace pkb::ref::p075 {
namespace {

// Every rank's tokens differ, and a and dt_bias are drawn per rank for its own head block
// (upstream: linspaces any rank can recompute), so a rank that skips the exchanges cannot run the
// other ranks' heads. dt_bias is centred at -6 (upstream: about 0) so the decay is about 0.99 per
// step instead of about 0.5: every head's output depends on all W ranks' tokens.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t batch = ctx.dim("Bt"), tokens = ctx.dim("Tl");
  const std::int64_t local_heads = (ctx.dim("Hb") + ctx.world() - 1) / ctx.world();
  const std::int64_t heads = local_heads * ctx.world();
  Tensors in;
  in.set("q", ctx.randn({batch, tokens, heads, ctx.dim("Dk")}));
  in.set("k", ctx.randn({batch, tokens, heads, ctx.dim("Dk")}));
  in.set("v", ctx.randn({batch, tokens, heads, ctx.dim("Dv")}));
  in.set("gate", ctx.randn({batch, tokens, heads}));
  // Upstream: sigmoid of a bf16 draw, computed in bf16, then cast to P.
  const at::Tensor raw = at::randn({batch, tokens, heads}, ctx.generator()).to(at::kBFloat16);
  in.set("beta", ctx.place(raw.to(at::kFloat).sigmoid().to(at::kBFloat16), ctx.dtype()));
  in.set("a", ctx.place(0.2 * at::rand({local_heads}, ctx.generator()), at::kBFloat16));
  in.set("dt_bias",
         ctx.place(at::randn({local_heads}, ctx.generator()) * 0.5 - 6.0, at::kBFloat16));
  return in;
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const int world = comm.size();
  // Sequence shard [Bt, Tl, H, ...] -> head shard [Bt, W*Tl, H/W, ...]: head block d goes to
  // rank d, received token blocks are concatenated in source order.
  auto to_heads = [&](const at::Tensor& x) {
    const at::Tensor send = at::stack(x.chunk(world, 2)).contiguous();  // [W, Bt, Tl, H/W, ...]
    at::Tensor received = at::empty_like(send);
    comm.all_to_all(received, send, {}, {});
    return at::cat(received.unbind(0), 1);
  };
  const at::Tensor& q_in = in.at("q");
  const at::ScalarType compute = at::promote_types(q_in.scalar_type(), at::kFloat);
  const std::int64_t dk = q_in.size(3);

  const at::Tensor q = to_heads(q_in).to(compute);
  const at::Tensor k = to_heads(in.at("k")).to(compute);
  const at::Tensor v = to_heads(in.at("v")).to(compute);
  const at::Tensor gate = to_heads(in.at("gate")).to(compute);
  const at::Tensor beta = to_heads(in.at("beta")).to(compute);

  const at::Tensor rate = in.at("a").to(compute).exp();
  const at::Tensor decay = (-rate * at::softplus(gate + in.at("dt_bias").to(compute), 1, 20)).exp();
  const at::Tensor q_hat = l2_normalize(q, 1e-6) * (1.0 / std::sqrt(static_cast<double>(dk)));
  const at::Tensor k_hat = l2_normalize(k, 1e-6);
  const at::Tensor o =
      delta_rule_recurrence(q_hat, k_hat, v, decay.unsqueeze(-1), beta).to(q_in.scalar_type());

  // Head shard [Bt, W*Tl, H/W, Dv] -> sequence shard: token block d goes to rank d, received head
  // blocks are concatenated in source order.
  const at::Tensor send = at::stack(o.chunk(world, 1)).contiguous();  // [W, Bt, Tl, H/W, Dv]
  at::Tensor received = at::empty_like(send);
  comm.all_to_all(received, send, {}, {});
  return {{"o", at::cat(received.unbind(0), 2).contiguous()}};
}

}  // namespace

PKB_REGISTER_REFERENCE("075_fla_gated_deltanet_cp", make_inputs, solve);

}  // namespace pkb::ref::p075
