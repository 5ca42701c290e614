// The expert-parallel MoE forward's steps shared by 028/029, 031/032 and 049-051: the routers,
// split sizes from per-expert counts, the dispatch all-to-all of (token, expert) rows, the
// expert MLP, and the return all-to-all with the weighted combine. Inputs: moe_inputs.h.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "reference/comm/comm.h"
#include "reference/tensors.h"

namespace pkb::ref::moe {

/// An int64 tensor's values on the host, as Comm::all_to_all takes split sizes.
std::vector<std::int64_t> host_list(const at::Tensor& values);

/// x W^T + b as one addmm (the bias enters the GEMM), fp32 accumulation (fp64 in the fp64 run),
/// one rounding to P: torch.addmm as 049-051's reference.py write it.
at::Tensor linear_addmm(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b);

/// x W^T, then + b, both in fp32 (fp64 in the fp64 run), one rounding to P: matmul + bias as
/// 031/032's reference.py write it. Not merged with linear_addmm: the two may round differently.
at::Tensor linear_matmul_add(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b);

/// A token's k experts and their routing weights, both (T, k); weights in P, not renormalised.
struct Routing {
  at::Tensor weights;
  at::Tensor experts;
};

/// 031/032's router: P(softmax(linear_matmul_add(x, gate_weight, gate_bias))), then at::topk.
Routing route_top_k(const Tensors& in, std::int64_t k);

/// 049-051's router: P(softmax(linear_addmm(x, gate_weight, gate_bias))), top k by a stable
/// descending sort (ties go to the lower expert).
Routing route_stable_top_k(const Tensors& in, std::int64_t k);

/// Where a rank's (token, expert) pairs go. Pair t*k + j is token t's j-th expert; pairs are
/// sent expert-major, tokens ascending, so rank j's rows (experts j*E/W ..) form block j.
struct Dispatch {
  at::Tensor order;                       // pair indices in send order
  at::Tensor token;                       // the token of each sent row (order / k)
  std::vector<std::int64_t> send_splits;  // rows to each rank
  std::vector<std::int64_t> recv_splits;  // rows from each rank
};

/// Plans the dispatch of `chosen` (T, k) expert ids over E = `experts`, W dividing E: counts
/// are all-gathered so each rank knows what it receives.
Dispatch plan_dispatch(Comm& comm, const at::Tensor& chosen, std::int64_t experts);

/// Sends x's row of every pair to its expert's rank; returns the rows this rank received.
at::Tensor dispatch_rows(Comm& comm, const Dispatch& plan, const at::Tensor& x);

/// One projection of the expert MLP, named "gate", "up" or "down": rows -> P(rows W^T + b).
using Projection = std::function<at::Tensor(const at::Tensor& rows, const std::string& name)>;

/// The projections "name"_proj_weight / _bias of `in`, by linear_addmm or linear_matmul_add.
Projection addmm_projection(const Tensors& in);
Projection matmul_add_projection(const Tensors& in);

/// down(P(P(silu(gate(x))) * up(x))), silu in fp32 (fp64 in the fp64 run). All experts of a
/// rank share its MLP and it acts row by row, so the received rows need no regrouping.
at::Tensor expert_mlp(const at::Tensor& rows, const Projection& project);

/// Returns each MLP output row `y` to its token's rank and combines them:
/// out[t] = P(sum over t's k pairs of P(w * y)), with `weights` (T, k) in P.
at::Tensor combine(Comm& comm, const Dispatch& plan, const at::Tensor& y,
                   const at::Tensor& weights);

/// The expert-parallel layer of 049-051 over `comm`: stable top-k routing (k capped at the expert
/// count), dispatch, the rank's expert MLP (addmm projections), combine. Returns out (T, hidden).
at::Tensor ep_moe_layer(Comm& comm, const Tensors& in, std::int64_t top_k);

}  // namespace pkb::ref::moe
