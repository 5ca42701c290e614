// Vocab-parallel top-k/top-p log-probs (problems 082-084): the shared input draw, the token <->
// vocabulary all-to-alls and the row filter. Header-only so the per-problem glob builds it with
// no CMake edit. The Python references repeat this math on purpose (each is self-contained).
#pragma once

#include <cstdint>
#include <limits>
#include <tuple>

#include <ATen/CPUGeneratorImpl.h>

#include "reference/registry.h"

namespace pkb::ref::vocab_parallel {

// The filter that make_inputs keeps decisions well away from: problem.json's top_k and top_p
// (the same in 082-084) must equal these.
constexpr std::int64_t kTopK = 10;
constexpr double kTopP = 0.9;
// Added to each token's target logit before rounding to P. Upstream adds 8, which leaves only
// the target after top-p, so nearly every output is exactly 0; with 3 the target is usually in
// the top 10 next to 5-9 other survivors, and its log-prob is about -1.
constexpr double kTargetBoost = 3.0;
// Every top-p cumulative sum stays this far from 1 - top_p (the bf16 softmax and cumsum err by
// about 1e-3), so P, fp64 and any valid kernel keep the same entries.
constexpr double kTopPMargin = 0.01;

/// target[b, s] = (mul * n + add + trial) mod V for the flattened token n = b * S + s (int64).
inline at::Tensor token_targets(const InputContext& ctx, std::int64_t mul, std::int64_t add) {
  const std::int64_t bt = ctx.dim("Bt"), s = ctx.dim("S"), v = ctx.dim("V");
  const at::Tensor n = at::arange(bt * s, at::kLong);
  return ((n * mul + add + ctx.trial()) % v).reshape({bt, s});
}

// True when the row's top k + 1 values differ (no tie decides the sort order) and no top-p
// cumulative sum lies within kTopPMargin of 1 - top_p. `row` holds P values, in fp64.
inline bool well_separated(const at::Tensor& row) {
  const at::Tensor top = std::get<0>(at::topk(row, kTopK + 1));  // descending
  if (!(top.narrow(0, 0, kTopK) > top.narrow(0, 1, kTopK)).all().item<bool>()) return false;
  const at::Tensor cumulative = at::softmax(top.narrow(0, 0, kTopK), 0).flip(0).cumsum(0);
  return ((cumulative - (1.0 - kTopP)).abs() >= kTopPMargin).all().item<bool>();
}

/// This rank's vocabulary slice [Bt, S, V/W] (in P) of logits [Bt * S, V]: randn plus
/// kTargetBoost at each token's target. The matrix is drawn with a generator shared by all ranks
/// (a rank's slice is only right if every rank sees the whole rows), and a row is drawn again
/// until well_separated holds for its P values, so the filter's decisions cannot flip on rounding.
inline at::Tensor boosted_logits(InputContext& ctx, const at::Tensor& target) {
  const std::int64_t bt = ctx.dim("Bt"), s = ctx.dim("S"), v = ctx.dim("V");
  const std::int64_t vl = v / ctx.world();
  at::Generator shared = at::make_generator<at::CPUGeneratorImpl>(ctx.seed() - ctx.rank());
  const at::Tensor flat_target = target.reshape({-1});
  at::Tensor rows = at::empty({bt * s, v}, at::kDouble);
  for (std::int64_t n = 0; n < bt * s; ++n) {
    at::Tensor row;
    do {
      row = at::randn({v}, shared);
      row[flat_target[n].item<std::int64_t>()] += kTargetBoost;
      row = row.to(ctx.dtype()).to(at::kDouble);
    } while (!well_separated(row));
    rows[n].copy_(row);
  }
  return ctx.place(rows.narrow(1, ctx.rank() * vl, vl).reshape({bt, s, vl}), ctx.dtype());
}

/// Full-vocabulary rows [Ct / W, V] of this rank's share of a chunk: token block d of the
/// chunk's vocab slice [Ct, Vl] goes to rank d, and the received slices are laid side by side in
/// source order.
inline at::Tensor gather_vocab(Comm& comm, const at::Tensor& slice) {
  const std::int64_t world = comm.size(), vl = slice.size(1), nl = slice.size(0) / world;
  at::Tensor received = at::empty_like(slice);
  comm.all_to_all(received, slice.contiguous(), {}, {});
  return received.view({world, nl, vl}).permute({1, 0, 2}).reshape({nl, world * vl});
}

/// The inverse of gather_vocab: vocab block d of rows [Ct / W, V] goes to rank d, which gets
/// the chunk's [Ct, Vl] for its slice with token blocks in source order.
inline at::Tensor scatter_vocab(Comm& comm, const at::Tensor& rows) {
  const std::int64_t world = comm.size(), nl = rows.size(0), vl = rows.size(1) / world;
  const at::Tensor send = rows.view({nl, world, vl}).permute({1, 0, 2}).reshape({world * nl, vl});
  at::Tensor received = at::empty_like(send);
  comm.all_to_all(received, send, {}, {});
  return received;
}

/// Keep mask [n, V] of the top-k/top-p filter on rows in P: sort ascending (in fp32, exact for
/// P); keep the entries >= the k-th largest (ties kept); p = rnd_P(softmax) over them;
/// c = cumsum(p) accumulated in fp32, rounded to P; keep where c > rnd_P(1 - top_p), and always
/// the largest entry; scatter back to vocabulary order.
inline at::Tensor keep_mask(const at::Tensor& rows, std::int64_t top_k, double top_p) {
  const at::ScalarType dtype = rows.scalar_type();
  const at::ScalarType acc = at::promote_types(dtype, at::kFloat);
  const std::int64_t v = rows.size(1);
  at::Tensor sorted, order;
  std::tie(sorted, order) = at::sort(rows.to(acc), -1);
  const at::Tensor in_top_k = sorted >= sorted.narrow(1, v - top_k, 1);
  const at::Tensor probs =
      at::softmax(sorted.masked_fill(~in_top_k, -std::numeric_limits<double>::infinity()), -1)
          .to(dtype);
  const at::Tensor cumulative = probs.to(acc).cumsum(-1).to(dtype);
  const at::Tensor threshold = at::scalar_tensor(1.0 - top_p, at::kDouble).to(dtype);
  at::Tensor keep_sorted = in_top_k & (cumulative.to(acc) > threshold.to(acc));
  keep_sorted.select(1, v - 1).fill_(true);
  return at::zeros_like(keep_sorted).scatter(1, order, keep_sorted);
}

/// log_softmax of the filtered rows (dropped entries -inf), in fp32 (fp64 in the checker's run).
inline at::Tensor filtered_log_softmax(const at::Tensor& rows, const at::Tensor& keep) {
  const at::ScalarType acc = at::promote_types(rows.scalar_type(), at::kFloat);
  return at::log_softmax(
      rows.to(acc).masked_fill(~keep, -std::numeric_limits<double>::infinity()), -1);
}

/// Problem 082's per-token function on one chunk: slice [Ct, Vl] (this rank's vocabulary, the
/// chunk's tokens), target [Ct]; returns the chunk's target log-probs [Ct] on every rank.
inline at::Tensor chunk_logprob(Comm& comm, const at::Tensor& slice, const at::Tensor& target,
                                std::int64_t top_k, double top_p) {
  const std::int64_t nl = slice.size(0) / comm.size();
  const at::Tensor rows = gather_vocab(comm, slice);
  const at::Tensor mine = target.narrow(0, comm.rank() * nl, nl).unsqueeze(1);
  const at::Tensor logprob =
      filtered_log_softmax(rows, keep_mask(rows, top_k, top_p)).gather(1, mine).squeeze(1);
  at::Tensor all = at::empty({comm.size() * nl}, logprob.options());
  comm.all_gather(all, logprob.contiguous());
  return all;
}

}  // namespace pkb::ref::vocab_parallel
