// Backward of problem 083 (explicit formula, no autograd). Per chunk of Ct = Bt * chunk_size
// flattened tokens: an all-to-all gives rank r whole rows for its share of the chunk; with the
// filter's keep mask K (vocab_parallel::keep_mask), p = softmax(filtered row) in fp32 and g the
// token's grad_output, grad[v] = K[v] * g * ([v = target] - p[v]); a second all-to-all returns
// vocab slice d of every row to rank d. Output grad_logits [Bt, S, V/W] (fp32), vocab-sharded.
// Shapes: problems/084_vocab_parallel_log_prob_topk_chunked_backward/problem.json.
#include <limits>

#include "reference/registry.h"
#include "reference/vocab_parallel.h"

namespace pkb::ref::p084 {
namespace {

// As in 082: 5-9 entries of each row survive the filter, so most gradients are nonzero (with
// upstream's +8 boost only the target survives and its gradient g * (1 - 1) is exactly 0). A
// rank without the first all-to-all filters rows that are zero outside its slice; without the
// second it returns zeros for other ranks' tokens.
Tensors make_inputs(InputContext& ctx) {
  const at::Tensor target = vocab_parallel::token_targets(ctx, 19, 5);
  const std::int64_t tokens = ctx.dim("Bt") * ctx.dim("S");
  return {{"logits", vocab_parallel::boosted_logits(ctx, target)},
          {"target", ctx.place(target, at::kLong)},
          {"grad_output", ctx.place(at::linspace(-1.0, 1.0, tokens).reshape(target.sizes()),
                                    at::kBFloat16)}};
}

at::Tensor chunk_grad(Comm& comm, const at::Tensor& slice, const at::Tensor& target,
                      const at::Tensor& grad_output, std::int64_t top_k, double top_p) {
  const std::int64_t nl = slice.size(0) / comm.size(), first = comm.rank() * nl;
  const at::Tensor rows = vocab_parallel::gather_vocab(comm, slice);
  const at::Tensor keep = vocab_parallel::keep_mask(rows, top_k, top_p);
  const at::ScalarType acc = at::promote_types(rows.scalar_type(), at::kFloat);
  const at::Tensor probs =
      at::softmax(rows.to(acc).masked_fill(~keep, -std::numeric_limits<double>::infinity()), -1);
  const at::Tensor onehot =
      at::zeros_like(probs).scatter_(1, target.narrow(0, first, nl).unsqueeze(1), 1.0);
  const at::Tensor g = grad_output.narrow(0, first, nl).to(acc).unsqueeze(1);
  const at::Tensor grad_rows = at::where(keep, g * (onehot - probs), at::zeros_like(probs));
  return vocab_parallel::scatter_vocab(comm, grad_rows);
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& logits = in.at("logits");
  const at::Tensor slice = logits.reshape({-1, logits.size(2)});
  const at::Tensor target = in.at("target").reshape({-1});
  const at::Tensor grad_output = in.at("grad_output").reshape({-1});
  const std::int64_t chunk = logits.size(0) * scalars.integer("chunk_size");
  std::vector<at::Tensor> parts;
  for (std::int64_t start = 0; start < slice.size(0); start += chunk) {
    const std::int64_t length = std::min(chunk, slice.size(0) - start);
    parts.push_back(chunk_grad(comm, slice.narrow(0, start, length),
                               target.narrow(0, start, length),
                               grad_output.narrow(0, start, length), scalars.integer("top_k"),
                               scalars.at("top_p")));
  }
  return {{"grad_logits", at::cat(parts).reshape(logits.sizes())}};
}

}  // namespace

PKB_REGISTER_REFERENCE("084_vocab_parallel_log_prob_topk_chunked_backward", make_inputs, solve);

}  // namespace pkb::ref::p084
