// Ring attention with pipeline parallelism (Megatron order, TP = DP = 1): CP groups are
// contiguous blocks of W/2 ranks (one per pipeline stage), PP groups the strided pairs
// {c, c + W/2}. Each stage applies Block(h) = rnd(RingAttn_CP(q, k, v) w_o^T) with
// q, k, v from rnd(h w_qkv^T) viewed [B, S, 3, H, D], causal ring attention of 054 over the CP
// group (scale D^-1/2). Stage 0 returns o0 = Block0(hidden_states) and sends it to its PP peer;
// stage 1 returns Block1(o0 received), ignoring its own hidden_states. Block is
// ring_attention.h's layer. Shapes: problems/056_ring_attention_pp/problem.json.
#include "reference/registry.h"
#include "reference/ring_attention.h"

namespace pkb::ref::p056 {
namespace {

// Upstream's seeds: hidden_states from 42 + 57000 + c (the same on both stages; stage 1 ignores
// it), the weights from 42 + 77000 + p (one set per stage). Stage 1 never sees hidden_states, so
// a skipped stage send leaves it with zeros; a skipped ring exchange changes CP ranks c > 0.
Tensors make_inputs(InputContext& ctx) {
  const int world = ctx.world(), pp = std::min(2, world), cp = world / pp;
  const int stage = ctx.rank() / cp, cp_rank = ctx.rank() % cp;
  return make_ring_attention_layer_inputs(ctx, input_seed(57, cp_rank, ctx.trial()),
                                          input_seed(77, stage, ctx.trial()), ctx.dim("T") / cp,
                                          ctx.dim("H") * ctx.dim("D"));
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const auto heads = static_cast<std::int64_t>(scalars.at("num_heads"));
  Comm& pp_group = comm.group("pp");
  const at::Tensor& hidden_states = in.at("hidden_states");
  at::Tensor stage_input = hidden_states;
  if (pp_group.rank() > 0) {  // receive the previous stage's activations
    stage_input = at::empty_like(hidden_states);
    pp_group.recv(stage_input, pp_group.rank() - 1);
  }
  at::Tensor out =
      ring_attention_layer(comm.group("cp"), stage_input, in.at("w_qkv"), in.at("w_o"), heads);
  if (pp_group.rank() + 1 < pp_group.size()) pp_group.send(out, pp_group.rank() + 1);
  return {{"out", out}};
}

}  // namespace

PKB_REGISTER_REFERENCE("056_ring_attention_pp", make_inputs, solve);

}  // namespace pkb::ref::p056
