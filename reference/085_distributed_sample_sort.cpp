// Distributed sample sort with a balanced split: with T = sum of the ranks' counts, rank r returns
// sorted(all values)[st_r : st_r + len_r], st_r = r*floor(T/W) + min(r, T mod W),
// len_r = floor(T/W) + (r < T mod W), in a capacity-C buffer padded with 0, plus len_r.
// Keys (value, rank, position in the rank's sorted data) are distinct under duplicate values.
// 1. sort locally, all-gather the counts; the A non-empty ranks are active; 2. all-gather A
// regular samples per active rank, sort them by key, take A - 1 splitters; 3. cut the local data
// at the splitters; 4. all-to-all bucket b to the b-th active rank, merge; 5. all-gather the bucket
// sizes and move each element to the owner of its global position with one more all-to-all.
// Shapes: problems/085_distributed_sample_sort/problem.json.
#include <algorithm>

#include "reference/registry.h"

namespace pkb::ref::p085 {
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

std::vector<std::int64_t> host_values(const at::Tensor& tensor) {
  const at::Tensor host = tensor.to(at::kCPU, at::kLong).contiguous();
  return {host.data_ptr<std::int64_t>(), host.data_ptr<std::int64_t>() + host.numel()};
}

std::int64_t overlap(std::int64_t begin_a, std::int64_t end_a, std::int64_t begin_b, std::int64_t end_b) {
  return std::max<std::int64_t>(0, std::min(end_a, end_b) - std::max(begin_a, begin_b));
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& shard = in.at("local_shard");
  const at::Tensor& local_count = in.at("local_count");
  const auto ints = local_count.options();
  const std::int64_t world = comm.size(), rank = comm.rank();
  const auto dtype = shard.scalar_type();
  const std::int64_t n = host_values(local_count)[0];
  // Keys in fp32 (fp64 in the checker's rerun): exact for every P.
  const at::Tensor keys = std::get<0>(at::sort(shard.narrow(0, 0, n).to(at::promote_types(dtype, at::kFloat))));

  // 1. Counts; the active ranks are the non-empty ones.
  at::Tensor counts = at::empty({world}, ints);
  comm.all_gather(counts, local_count);
  const std::vector<std::int64_t> host_counts = host_values(counts);
  std::vector<std::int64_t> active;
  for (std::int64_t source = 0; source < world; ++source)
    if (host_counts[source] > 0) active.push_back(source);
  const std::int64_t num_active = static_cast<std::int64_t>(active.size());
  at::Tensor sorted_slice = at::zeros_like(shard);
  if (num_active == 0) return {{"sorted_slice", sorted_slice}, {"count", at::zeros_like(local_count)}};

  // 2. A regular samples (value, position) per rank; the rank is the gather slot. They arrive
  // ordered by (rank, position), so a stable sort by value orders them by the key; the splitters
  // are samples A, 2A, ..., (A - 1) A of that order.
  std::vector<std::int64_t> sample_positions;
  for (std::int64_t i = 0; i < num_active; ++i) sample_positions.push_back(i * n / num_active);
  const at::Tensor positions = at::tensor(sample_positions, at::kLong).to(shard.device());
  const at::Tensor samples = n > 0 ? keys.index_select(0, positions) : at::zeros({num_active}, keys.options());
  at::Tensor all_samples = at::empty({world, num_active}, samples.options());
  at::Tensor all_positions = at::empty({world, num_active}, ints);
  comm.all_gather(all_samples, samples);
  comm.all_gather(all_positions, positions);
  const at::Tensor rows = at::tensor(active, at::kLong).to(shard.device());
  const at::Tensor values = all_samples.index_select(0, rows).reshape({-1});
  const at::Tensor order = std::get<1>(at::sort(values, /*stable=*/true, 0, false));
  const at::Tensor picks = order.slice(0, num_active, num_active * num_active, num_active);
  const at::Tensor split_values = values.index_select(0, picks);
  const std::vector<std::int64_t> split_slots = host_values(picks);
  const std::vector<std::int64_t> split_positions =
      host_values(all_positions.index_select(0, rows).reshape({-1}).index_select(0, picks));

  // 3. Cut the sorted data: keys below a splitter (value, rank, position) are the smaller values,
  // plus the equal ones if this rank precedes the splitter's (its positions before it on its rank).
  const std::vector<std::int64_t> below_left = host_values(at::searchsorted(keys, split_values));
  const std::vector<std::int64_t> below_right =
      host_values(at::searchsorted(keys, split_values, /*out_int32=*/false, /*right=*/true));
  std::vector<std::int64_t> cuts{0};
  for (std::int64_t j = 0; j + 1 < num_active; ++j) {
    const std::int64_t split_rank = active[split_slots[j] / num_active];
    cuts.push_back(split_rank == rank  ? split_positions[j]
                   : rank < split_rank ? below_right[j]
                                       : below_left[j]);
  }
  cuts.push_back(n);
  std::vector<std::int64_t> send_splits(world, 0);
  for (std::int64_t bucket = 0; bucket < num_active; ++bucket)
    send_splits[active[bucket]] = cuts[bucket + 1] - cuts[bucket];

  // 4. Bucket b goes to the b-th active rank, which merges what it receives.
  const at::Tensor send_counts = at::tensor(send_splits, at::kLong).to(shard.device());
  at::Tensor recv_counts = at::empty_like(send_counts);
  comm.all_to_all(recv_counts, send_counts, {}, {});
  std::vector<std::int64_t> recv_splits = host_values(recv_counts);
  std::int64_t received_count = 0;
  for (std::int64_t count : recv_splits) received_count += count;
  at::Tensor received = at::empty({received_count}, shard.options());
  comm.all_to_all(received, keys.to(dtype).contiguous(), recv_splits, send_splits);
  const at::Tensor merged = std::get<0>(at::sort(received.to(keys.scalar_type()))).to(dtype).contiguous();

  // 5. Rebalance: rank s's bucket holds the global positions [offset_s, offset_s + size_s).
  at::Tensor sizes = at::empty({world}, ints);
  comm.all_gather(sizes, at::full({1}, merged.numel(), ints));
  const std::vector<std::int64_t> host_sizes = host_values(sizes);
  std::vector<std::int64_t> offsets(world + 1, 0), starts(world), lengths(world);
  for (std::int64_t s = 0; s < world; ++s) offsets[s + 1] = offsets[s] + host_sizes[s];
  const std::int64_t base = offsets[world] / world, extra = offsets[world] % world;
  for (std::int64_t r = 0; r < world; ++r) {
    starts[r] = r * base + std::min(r, extra);
    lengths[r] = base + (r < extra ? 1 : 0);
  }
  for (std::int64_t d = 0; d < world; ++d) {
    send_splits[d] = overlap(offsets[rank], offsets[rank + 1], starts[d], starts[d] + lengths[d]);
    recv_splits[d] = overlap(offsets[d], offsets[d + 1], starts[rank], starts[rank] + lengths[rank]);
  }
  at::Tensor balanced = at::empty({lengths[rank]}, shard.options());
  comm.all_to_all(balanced, merged, recv_splits, send_splits);
  sorted_slice.narrow(0, 0, lengths[rank]).copy_(balanced);
  return {{"sorted_slice", sorted_slice}, {"count", at::full({1}, lengths[rank], ints)}};
}

}  // namespace

PKB_REGISTER_REFERENCE("085_distributed_sample_sort", make_inputs, solve);

}  // namespace pkb::ref::p085
