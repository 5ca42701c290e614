// Input draws that two or more MoE references (028/029, 031/032, 049-051) make alike.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>

#include "reference/inputs.h"
#include "reference/tensors.h"

namespace pkb::ref::moe {

/// 031/032's inputs, drawn in this order: hidden_states (M, N), the router gate_weight
/// (experts, N) and gate_bias as fp32 normals, left in fp32 for redraw_near_ties, then the MLP's
/// gate/up/down projections with nn.Linear's init U(-1/sqrt(fan_in), 1/sqrt(fan_in)), in P.
Tensors draw_randn_router_inputs(InputContext& ctx, std::int64_t experts);

/// Redraws the tokens whose 2nd and 3rd router logits are near-tied (see the .cpp), then puts
/// hidden_states, gate_weight and gate_bias in P. Throws if ties remain after 100 redraws.
void redraw_near_ties(InputContext& ctx, Tensors& in);

/// 049-051's inputs: a router whose top choices are 2 logits apart in every precision, and the
/// MLP's projections, all in P (the .cpp says how).
Tensors draw_separated_router_inputs(InputContext& ctx, std::int64_t experts);

/// Appends 028/029's in_splits, out_splits (routed/W each) and tab (W, E/W) (routed/E rows per
/// chunk, one more for the first routed mod E): upstream's synthetic equal splits.
void set_equal_splits(InputContext& ctx, std::int64_t routed, std::int64_t experts, Tensors& in);

}  // namespace pkb::ref::moe
