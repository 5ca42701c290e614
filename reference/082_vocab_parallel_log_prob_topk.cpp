// Vocab-parallel log-prob of each token's target after top-k/top-p filtering. Rank r holds
// vocabulary slice r of logits [Bt, S, V]; an all-to-all gives rank r whole rows for tokens
// [r Nt/W, (r+1) Nt/W); each row is filtered (vocab_parallel::keep_mask), log_softmax'd in fp32
// and read at the target; an all-gather gives every rank logprob [Bt, S] (fp32).
// Shapes: problems/082_vocab_parallel_log_prob_topk/problem.json.
#include "reference/registry.h"
#include "reference/vocab_parallel.h"

namespace pkb::ref::p082 {
namespace {

// A rank without the all-to-all filters rows that are zero outside its own slice, and without
// the all-gather returns zeros for other ranks' tokens; boosted_logits keeps 5-9 survivors per
// row so the log-probs are about -1, not the exact zeros of upstream's +8 boost.
Tensors make_inputs(InputContext& ctx) {
  const at::Tensor target = vocab_parallel::token_targets(ctx, 17, 3);
  return {{"logits", vocab_parallel::boosted_logits(ctx, target)},
          {"target", ctx.place(target, at::kLong)}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& logits = in.at("logits");
  const at::Tensor& target = in.at("target");
  const at::Tensor logprob = vocab_parallel::chunk_logprob(
      comm, logits.reshape({-1, logits.size(2)}), target.reshape({-1}),
      scalars.integer("top_k"), scalars.at("top_p"));
  return {{"logprob", logprob.reshape(target.sizes())}};
}

}  // namespace

PKB_REGISTER_REFERENCE("082_vocab_parallel_log_prob_topk", make_inputs, solve);

}  // namespace pkb::ref::p082
