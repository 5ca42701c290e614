// Distributed sort with a balanced split: with T = sum of the ranks' counts, rank r returns
// sorted(all values)[st_r : st_r + len_r], st_r = r*floor(T/W) + min(r, T mod W),
// len_r = floor(T/W) + (r < T mod W), in a capacity-C buffer padded with 0, plus len_r.
// Shapes: problems/085_distributed_sample_sort/problem.json.
#include <algorithm>

#include "reference/registry.h"

namespace pkb::ref {
namespace {

// Upstream's values, rnd_P(rnd_P(randint[-50, 50)) - r * max(1, n_r)): each rank's range is
// offset, so a rank that skips the exchange returns its own values, not its slice of the whole.
// Counts vary with rank and trial (and are 0 on odd ranks when trial mod 4 = 3, as upstream), so
// the split differs from the shards' sizes and a stale trial moves every boundary.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t world = ctx.world(), rank = ctx.rank();
  const std::int64_t capacity = std::max(4 * world, std::min(ctx.dim("M") / world, std::int64_t{4096}));
  const bool empty = ctx.trial() % 4 == 3 && rank % 2 == 1;
  const std::int64_t count = empty ? 0 : capacity - ((rank + ctx.trial()) % 3) * (capacity / 4);
  const at::Tensor drawn = ctx.randint64(-50, 49, {capacity}).to(at::kCPU).to(ctx.dtype());
  at::Tensor values = (drawn.to(at::kFloat) - static_cast<double>(rank * std::max<std::int64_t>(1, count)))
                          .to(ctx.dtype());
  values.narrow(0, count, capacity - count).zero_();
  return {{"local_shard", ctx.place(values, ctx.dtype())},
          {"local_count", ctx.to_device(at::full({1}, count, at::kLong))}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& shard = in.at("local_shard");
  const std::int64_t world = comm.size(), rank = comm.rank(), capacity = shard.size(0);
  at::Tensor counts = at::empty({world}, in.at("local_count").options());
  comm.all_gather(counts, in.at("local_count"));
  at::Tensor shards = at::empty({world, capacity}, shard.options());
  comm.all_gather(shards, shard.contiguous());

  const at::Tensor host_counts = counts.to(at::kCPU);
  std::vector<at::Tensor> pieces;
  for (std::int64_t source = 0; source < world; ++source)
    pieces.push_back(shards[source].narrow(0, 0, host_counts[source].item<std::int64_t>()));
  const at::Tensor values = at::cat(pieces);
  // Sorting in fp32 (fp64 in the checker's rerun) is exact for every P.
  const at::Tensor ordered =
      std::get<0>(at::sort(values.to(at::promote_types(shard.scalar_type(), at::kFloat)))).to(shard.scalar_type());

  const std::int64_t base = values.numel() / world, extra = values.numel() % world;
  const std::int64_t start = rank * base + std::min(rank, extra);
  const std::int64_t length = base + (rank < extra ? 1 : 0);
  at::Tensor sorted_slice = at::zeros_like(shard);
  sorted_slice.narrow(0, 0, length).copy_(ordered.narrow(0, start, length));
  return {{"sorted_slice", sorted_slice},
          {"count", at::full({1}, length, counts.options())}};
}

}  // namespace

PKB_REGISTER_REFERENCE("085_distributed_sample_sort", make_inputs, solve);

}  // namespace pkb::ref
