// MoE combine: expert_out (2M rows, local-expert-major) is cut into chunks (chunk l*W + s has
// tab[s, l] rows) and put back source-major (for s, for l); a reverse all-to-all returns each
// row to its token's rank (buf); tw[i] = the routing weight of row i, looked up by (expert, token);
// out[perm[i]] += P(buf[i] * tw[i]). Shapes: problems/029_moe_post_all2all/problem.json.
#include "reference/moe_dispatch.h"
#include "reference/moe_inputs.h"
#include "reference/registry.h"

namespace pkb::ref::p029 {
namespace {

// Each token picks 2 distinct experts (the first two of a random permutation) with softmax
// weights; expert_out differs per rank, so a skipped all-to-all combines the wrong rows. The
// splits and tab are upstream's synthetic equal ones (2M/W per peer, 2M/E per chunk).
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t tokens = ctx.dim("M");
  const std::int64_t experts = ctx.dim("E");
  const std::int64_t routed = 2 * tokens;
  const at::Tensor order =
      at::rand({tokens, experts}, ctx.generator()).argsort(/*dim=*/1, /*descending=*/false);
  const at::Tensor sel = std::get<0>(order.narrow(1, 0, 2).sort(1));  // (M, 2), ascending
  const at::Tensor routing =
      at::zeros({tokens, experts}, at::kBool).scatter_(1, sel, true).t().contiguous();
  // Softmax of P values, computed in fp32 and rounded to P once (CPU ATen has no fp16 softmax).
  const at::Tensor logits = ctx.randn({tokens, 2}).to(at::kFloat);
  const at::Tensor weights = at::softmax(logits, 1).to(ctx.dtype());
  const at::Tensor expert_out = ctx.randn({routed, ctx.dim("N")});
  Tensors in{{"expert_out", expert_out}, {"weights", weights}, {"sel", ctx.place(sel, at::kLong)}};
  moe::set_equal_splits(ctx, routed, experts, in);
  in.set("routing", ctx.place(routing, at::kBool));
  in.set("perm", ctx.place(at::nonzero(routing).select(1, 1).contiguous(), at::kLong));
  return in;
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& expert_out = in.at("expert_out");
  const at::Tensor& routing = in.at("routing");
  const at::Tensor& tab = in.at("tab");
  const auto in_splits = moe::host_list(in.at("in_splits"));
  const auto out_splits = moe::host_list(in.at("out_splits"));

  const std::int64_t world = tab.size(0), local = tab.size(1);
  const auto chunks = expert_out.split_with_sizes(moe::host_list(tab.t()));  // chunk l*W + s
  std::vector<at::Tensor> by_source;
  for (std::int64_t s = 0; s < world; ++s)
    for (std::int64_t l = 0; l < local; ++l) by_source.push_back(chunks[l * world + s]);

  std::int64_t receiving = 0;
  for (std::int64_t rows : in_splits) receiving += rows;
  at::Tensor buf = at::empty({receiving, expert_out.size(1)}, expert_out.options());
  comm.all_to_all(buf, at::cat(by_source), in_splits, out_splits);

  const at::Tensor& weights = in.at("weights");
  const at::Tensor dense = at::zeros({routing.size(1), routing.size(0)}, weights.options())
                               .scatter_add_(1, in.at("sel"), weights);
  const at::Tensor token_weight = dense.t().masked_select(routing);  // expert-major, like perm
  const at::Tensor contrib = buf * token_weight.unsqueeze(1);        // rounded to P
  at::Tensor out = at::zeros({routing.size(1), expert_out.size(1)}, expert_out.options());
  out.index_add_(0, in.at("perm"), contrib);  // two terms onto zero: order-independent
  return {{"out", out}};
}

}  // namespace

PKB_REGISTER_REFERENCE("029_moe_post_all2all", make_inputs, solve);

}  // namespace pkb::ref::p029
