// MoE dispatch: routing = mask summed over slots (E, M); perm = the tokens with routing[e, t] != 0,
// expert-major, token-ascending; the rows hidden[perm] go out in consecutive blocks (in_splits[d]
// to rank d); the received blocks are cut into chunks (chunk s*L + l has tab[s, l] rows) and
// reordered local-expert-major (for l, for s). perm sits in an E*M buffer padded with -1.
// Shapes: problems/028_moe_pre_all2all/problem.json.
#include "reference/moe_dispatch.h"
#include "reference/moe_inputs.h"
#include "reference/registry.h"

namespace pkb::ref::p028 {
namespace {

// Each token picks 2 distinct experts (the first two of a random permutation), so 2M rows are
// routed. hidden differs per rank, so a skipped all-to-all leaves other ranks' rows wrong. The
// splits and tab are upstream's synthetic equal ones (2M/W per peer, 2M/E per chunk).
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t tokens = ctx.dim("M");
  const std::int64_t experts = ctx.dim("E");
  const at::Tensor hidden = ctx.randn({tokens, ctx.dim("N")});
  const at::Tensor order =
      at::rand({tokens, experts}, ctx.generator()).argsort(/*dim=*/1, /*descending=*/false);
  const at::Tensor one_hot = at::one_hot(order.narrow(1, 0, 2), experts);  // (M, 2, E)
  Tensors in{{"hidden", hidden},
             {"mask", ctx.place(one_hot.permute({2, 1, 0}).contiguous(), at::kFloat)}};
  moe::set_equal_splits(ctx, /*routed=*/2 * tokens, experts, in);
  return in;
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& hidden = in.at("hidden");
  const at::Tensor& mask = in.at("mask");
  const auto in_splits = moe::host_list(in.at("in_splits"));
  const auto out_splits = moe::host_list(in.at("out_splits"));
  const at::Tensor& tab = in.at("tab");

  const at::Tensor routing = mask.sum(1);  // (E, M)
  // nonzero lists (e, t) pairs row-major, so perm is expert-major with tokens ascending.
  const at::Tensor perm = at::nonzero(routing).select(1, 1).contiguous();
  const std::int64_t routed = perm.size(0);
  std::int64_t sending = 0, receiving = 0;
  for (std::int64_t rows : in_splits) sending += rows;
  for (std::int64_t rows : out_splits) receiving += rows;
  TORCH_CHECK(sending == routed, "in_splits sum to ", sending, ", but ", routed,
              " rows are routed");

  const at::Tensor permuted = hidden.index_select(0, perm);
  at::Tensor received = at::empty({receiving, hidden.size(1)}, hidden.options());
  comm.all_to_all(received, permuted, out_splits, in_splits);

  const std::int64_t world = tab.size(0), local = tab.size(1);
  const auto chunks = received.split_with_sizes(moe::host_list(tab));  // chunk s*L + l
  std::vector<at::Tensor> regrouped;
  for (std::int64_t l = 0; l < local; ++l)
    for (std::int64_t s = 0; s < world; ++s) regrouped.push_back(chunks[s * local + l]);

  at::Tensor padded = at::full({routing.numel()}, -1, perm.options());
  padded.narrow(0, 0, routed).copy_(perm);
  return {{"global_permuted", at::cat(regrouped)},
          {"routing", routing},
          {"perm", padded},
          {"perm_count", at::scalar_tensor(routed, perm.options())}};
}

}  // namespace

PKB_REGISTER_REFERENCE("028_moe_pre_all2all", make_inputs, solve);

}  // namespace pkb::ref::p028
