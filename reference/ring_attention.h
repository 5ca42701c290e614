// Ring attention pieces shared by the context-parallel references (054 to 057): the K/V ring walk,
// the causal blockwise forward with its log-sum-exp merge, and the attention layer around it
// (QKV projection, ring attention, output projection) used by the TP and PP variants.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <functional>

#include "reference/comm/comm.h"
#include "reference/inputs.h"
#include "reference/tensors.h"

namespace pkb::ref {

/// Walks this rank's K/V block (`k`, `v`, [B, S, h, D]) around `ring`: at step s = 0..W-1, after
/// passing the held block on (send to r+1, receive from r-1; no exchange after the last step),
/// calls visit(s, k_s, v_s) with the block of rank (r - s) mod W. Exchanging before the visit
/// lets a visitor that talks on the ring itself (057's dK/dV hops) keep the same message order.
void visit_ring_blocks(Comm& ring, const at::Tensor& k, const at::Tensor& v,
                       const std::function<void(int step, const at::Tensor& k_block,
                                                const at::Tensor& v_block)>& visit);

/// Causal ring attention (problem 054) over `ring`: q, k, v [B, S, h, D] in P, rank r holding
/// global positions r*S..r*S+S-1. Blocks are computed in fp32 (fp64 in the fp64 rerun), merged by
/// their log-sum-exp, and the result is rounded to P once.
at::Tensor ring_attention(Comm& ring, const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                          double scale);

/// One attention layer (055, 056): qkv = rnd(h w_qkv^T) viewed [B, S, 3, heads, D], causal
/// ring_attention over `cp_group` with scale D^-1/2, then rnd(context w_o^T), contiguous.
at::Tensor ring_attention_layer(Comm& cp_group, const at::Tensor& h, const at::Tensor& w_qkv,
                                const at::Tensor& w_o, std::int64_t heads);

/// The layer's inputs as upstream draws them: hidden_states [B, seq, H*D] from `data_seed`, then
/// w_qkv [3*local, H*D] and w_o [H*D, local] (both N(0, 0.02^2)) from `weight_seed`, in the run's
/// dtype. Ranks sharing a seed get the same tensors, as TP shards and PP stages require.
Tensors make_ring_attention_layer_inputs(InputContext& ctx, std::uint64_t data_seed,
                                         std::uint64_t weight_seed, std::int64_t seq,
                                         std::int64_t local);

}  // namespace pkb::ref
