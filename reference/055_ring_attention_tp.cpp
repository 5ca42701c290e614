// Ring attention with tensor parallelism (Megatron "tp-cp" order): TP groups are contiguous pairs
// (tp = 2), CP groups strided. Rank (cp rank c, tp rank t) holds sequence block c of
// hidden_states [B, S, H*D] and TP shard t of the projections (H/tp heads):
//   qkv = rnd(hidden w_qkv^T) viewed [B, S, 3, H/tp, D]; context = causal ring attention of 054
//   over the CP group (blocks travel to CP rank c+1, scale D^-1/2); y = rnd(context w_o^T);
//   out = sum of y over the TP group, in P. The layer is ring_attention.h's.
// Shapes: problems/055_ring_attention_tp/problem.json.
#include "reference/registry.h"
#include "reference/ring_attention.h"

namespace pkb::ref::p055 {
namespace {

// Upstream's seeds: hidden_states from 42 + 56000 + c (shared by a TP pair, as TP requires),
// the weights from 42 + 66000 + t (shared by all ranks with TP rank t). Sequence blocks and TP
// shards differ, so a skipped ring exchange (ranks with c > 0) or a skipped TP sum (every rank)
// changes the output.
Tensors make_inputs(InputContext& ctx) {
  const int world = ctx.world(), tp = std::min(2, world), cp = world / tp;
  const int tp_rank = ctx.rank() % tp, cp_rank = ctx.rank() / tp;
  return make_ring_attention_layer_inputs(ctx, input_seed(56, cp_rank, ctx.trial()),
                                          input_seed(66, tp_rank, ctx.trial()), ctx.dim("T") / cp,
                                          ctx.dim("H") / tp * ctx.dim("D"));
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const std::int64_t heads =
      static_cast<std::int64_t>(scalars.at("num_heads")) / comm.group("tp").size();
  at::Tensor y = ring_attention_layer(comm.group("cp"), in.at("hidden_states"), in.at("w_qkv"),
                                      in.at("w_o"), heads);
  comm.group("tp").all_reduce(y, ReduceOp::sum);
  return {{"out", y}};
}

}  // namespace

PKB_REGISTER_REFERENCE("055_ring_attention_tp", make_inputs, solve);

}  // namespace pkb::ref::p055
