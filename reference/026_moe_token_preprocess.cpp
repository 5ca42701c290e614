// MoE dispatch metadata: cnt[e] = number of (slot, token) pairs routed to expert e on this rank;
// in_splits[d] = cnt summed over rank d's L = E/W experts; G = all_gather(cnt) (W, E);
// tab = G[:, r*L : (r+1)*L]; out_splits = tab summed over l; col = tab summed over s.
// Shapes: problems/026_moe_token_preprocess/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p026 {
namespace {

// Top-2 one-hot routing of M tokens over E experts; each rank draws its own, so a rank that
// skips the all-gather has zero rows for every other source in tab and wrong out_splits and col.
// Both slots may pick the same expert, as upstream's generator allows.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t experts = ctx.dim("E");
  const at::Tensor choice = ctx.randint64(0, experts - 1, {ctx.dim("M"), 2});  // (M, 2)
  const at::Tensor one_hot = at::one_hot(choice, experts);                     // (M, 2, E)
  return {{"mask", ctx.place(one_hot.permute({2, 1, 0}).contiguous(), at::kFloat)}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& mask = in.at("mask");
  const std::int64_t world = comm.size();
  const std::int64_t local = mask.size(0) / world;  // experts per rank; expert e lives on e / local
  const at::Tensor counts = mask.sum({1, 2});       // (E,), in the mask's dtype
  const at::Tensor in_splits = counts.view({world, local}).sum(1).to(at::kLong);

  const at::Tensor gathered = at::empty({world, mask.size(0)}, counts.options());
  comm.all_gather(gathered, counts);
  const at::Tensor tab = gathered.narrow(1, comm.rank() * local, local).contiguous();
  return {{"in_splits", in_splits},
          {"out_splits", tab.sum(1).to(at::kLong)},
          {"tab", tab},
          {"col", tab.sum(0)}};
}

}  // namespace

PKB_REGISTER_REFERENCE("026_moe_token_preprocess", make_inputs, solve);

}  // namespace pkb::ref::p026
