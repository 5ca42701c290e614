// Expert-parallel MoE inside EP sub-groups of E = W/2 consecutive ranks (E = 1 at W = 2), expert
// e on group rank e, top_k = min(2, E), every step on the group. Rank r routes its tokens with
// its own router: prob = P(softmax(P(x Wg^T + bg))), top-2 by a stable descending sort (ties to
// the lower expert), weights not renormalised. Counts are all-gathered, the (token, expert)
// pairs go out expert-major (token-ascending) in one all-to-all, every received row passes
// through the receiving rank's MLP y = down(P(P(silu(gate(x))) * up(x))), a second all-to-all
// brings the rows back, and out[t] = P(sum over t's pairs of P(w * y)).
// Shapes: problems/051_moe_ep_narrow/problem.json.
#include "reference/registry.h"

namespace pkb::ref {
namespace {

at::ScalarType accumulation(const at::Tensor& x) {
  return at::promote_types(x.scalar_type(), at::kFloat);
}

// x W^T + b with fp32 accumulation (fp64 in the fp64 run) and one rounding to P.
at::Tensor linear(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b) {
  const auto acc = accumulation(x);
  return at::addmm(b.to(acc), x.to(acc), w.to(acc).t()).to(x.scalar_type());
}

std::vector<std::int64_t> host_list(const at::Tensor& values) {
  const at::Tensor host = values.cpu().contiguous();
  return {host.data_ptr<std::int64_t>(), host.data_ptr<std::int64_t>() + host.numel()};
}

at::Tensor uniform(InputContext& ctx, at::IntArrayRef shape, double bound) {
  return ctx.place((at::rand(shape, ctx.generator()) * 2 - 1) * bound, ctx.dtype());
}

// Per-rank data and weights, so a skipped all-to-all applies the wrong rank's MLP. Upstream's
// randn router makes exact probability ties in P common, which flips experts between the P run
// and the fp64 one; here columns 0..E-1 of every token hold a random permutation of
// 0, 0.25, .., (E-1)/4 and the router is 8 I (plus 1e-3 noise, bias 1e-2), so logits are 2 apart
// and the routing is the same in every precision while still differing token by token.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t tokens = ctx.dim("M"), hidden = ctx.dim("N"), inter = ctx.dim("I");
  const std::int64_t experts = std::max(1, ctx.world() / 2);
  at::Generator& gen = ctx.generator();
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
  in.set("gate_proj_weight", uniform(ctx, {inter, hidden}, bound_n));
  in.set("gate_proj_bias", uniform(ctx, {inter}, bound_n));
  in.set("up_proj_weight", uniform(ctx, {inter, hidden}, bound_n));
  in.set("up_proj_bias", uniform(ctx, {inter}, bound_n));
  in.set("down_proj_weight", uniform(ctx, {hidden, inter}, bound_i));
  in.set("down_proj_bias", uniform(ctx, {hidden}, bound_i));
  return in;
}

Tensors solve(Comm& world, const Tensors& in, const Scalars& scalars) {
  Comm& comm = world.group("ep");
  const at::Tensor& x = in.at("hidden_states");
  const auto dtype = x.scalar_type();
  const auto acc = accumulation(x);
  const std::int64_t experts = in.at("gate_weight").size(0), size = comm.size();
  const std::int64_t local = experts / size, k = std::min(scalars.integer("top_k"), experts);

  const at::Tensor prob =
      at::softmax(linear(x, in.at("gate_weight"), in.at("gate_bias")).to(acc), -1).to(dtype);
  const auto [sorted, order] = at::sort(prob.to(acc), /*stable=*/true, -1, /*descending=*/true);
  const at::Tensor weight = sorted.narrow(1, 0, k).to(dtype).reshape(-1);  // pair t*k + j
  const at::Tensor chosen = order.narrow(1, 0, k).reshape(-1);

  const at::Tensor counts = at::bincount(chosen, {}, experts);
  at::Tensor all_counts = at::empty({size * experts}, counts.options());
  comm.all_gather(all_counts, counts);
  const auto send = host_list(counts.view({size, local}).sum(1));
  const auto recv = host_list(all_counts.view({size, size, local}).select(1, comm.rank()).sum(1));

  // Pairs expert-major, tokens ascending: rows for rank j are one block, blocks in rank order.
  const at::Tensor perm = std::get<1>(at::sort(chosen, /*stable=*/true, 0, false));
  const at::Tensor rows = x.index_select(0, at::div(perm, k, "floor"));
  std::int64_t received_rows = 0;
  for (std::int64_t n : recv) received_rows += n;
  at::Tensor received = at::empty({received_rows, x.size(1)}, x.options());
  comm.all_to_all(received, rows, recv, send);

  // All local experts share this rank's MLP and it acts row by row, so upstream's regrouping
  // of the received chunks by local expert (and its inverse) changes nothing.
  const at::Tensor act =
      at::silu(linear(received, in.at("gate_proj_weight"), in.at("gate_proj_bias")).to(acc))
          .to(dtype);
  const at::Tensor up = linear(received, in.at("up_proj_weight"), in.at("up_proj_bias"));
  const at::Tensor y = linear((act.to(acc) * up.to(acc)).to(dtype), in.at("down_proj_weight"),
                              in.at("down_proj_bias"));

  at::Tensor returned = at::empty_like(rows);
  comm.all_to_all(returned, y, send, recv);
  const at::Tensor contrib =
      (returned.to(acc) * weight.index_select(0, perm).unsqueeze(1).to(acc)).to(dtype);
  const at::Tensor per_pair = at::empty_like(contrib).index_copy_(0, perm, contrib);
  return {{"out", per_pair.view({x.size(0), k, x.size(1)}).to(acc).sum(1).to(dtype)}};
}

}  // namespace

PKB_REGISTER_REFERENCE("051_moe_ep_narrow", make_inputs, solve);

}  // namespace pkb::ref
