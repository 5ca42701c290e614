// Problem 082's vocab-parallel top-k/top-p target log-prob, one chunk at a time: the flattened
// tokens go in chunks of Ct = Bt * chunk_size; within a chunk rank r handles tokens
// [r Ct/W, (r+1) Ct/W), with one all-to-all and one all-gather per chunk. Each token's value
// depends only on its own row, so the result is 082's function of these inputs.
// Shapes: problems/083_vocab_parallel_log_prob_topk_chunked/problem.json.
#include "reference/registry.h"
#include "reference/vocab_parallel.h"

namespace pkb::ref::p083 {
namespace {

// As in 082 (a rank without the all-to-all filters rows that are zero outside its slice;
// without the all-gather it returns zeros), with upstream's target rule for this problem.
Tensors make_inputs(InputContext& ctx) {
  const at::Tensor target = vocab_parallel::token_targets(ctx, 19, 5);
  return {{"logits", vocab_parallel::boosted_logits(ctx, target)},
          {"target", ctx.place(target, at::kLong)}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& logits = in.at("logits");
  const at::Tensor& target = in.at("target");
  const at::Tensor slice = logits.reshape({-1, logits.size(2)});
  const at::Tensor flat_target = target.reshape({-1});
  const std::int64_t chunk = logits.size(0) * scalars.integer("chunk_size");
  std::vector<at::Tensor> parts;
  for (std::int64_t start = 0; start < slice.size(0); start += chunk) {
    const std::int64_t length = std::min(chunk, slice.size(0) - start);
    parts.push_back(vocab_parallel::chunk_logprob(
        comm, slice.narrow(0, start, length), flat_target.narrow(0, start, length),
        scalars.integer("top_k"), scalars.at("top_p")));
  }
  return {{"logprob", at::cat(parts).reshape(target.sizes())}};
}

}  // namespace

PKB_REGISTER_REFERENCE("083_vocab_parallel_log_prob_topk_chunked", make_inputs, solve);

}  // namespace pkb::ref::p083
