# pkb problem 085_distributed_sample_sort: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def _overlap(start_a, end_a, start_b, end_b):
    return max(0, min(end_a, end_b) - max(start_a, start_b))


def solution(local_shard: torch.Tensor, local_count: torch.Tensor):
    """Distributed sample sort with a balanced output split.

    local_shard: [C] in the run precision; this rank's values are local_shard[:n], n = local_count.
    local_count: [1] int64, n (may be 0).
    With T = sum of all ranks' counts, base = T // W and extra = T % W, rank r owns the sorted
    positions [st, st + len) with st = r * base + min(r, extra) and len = base + (r < extra).
    Returns sorted_slice: [C], sorted(all values)[st : st + len] followed by zeros, and
    count: [1] int64 = len.

    The sort: every element has the key (value, rank, position in the rank's sorted data), so keys
    are distinct even when values repeat.
      1. Sort locally; all-gather the counts; the "active" ranks are those with n > 0, A of them.
      2. Each active rank takes A regular samples (positions i * n // A); all-gather them, sort the
         A * A samples by key and take A - 1 splitters (samples A, 2A, ..., (A - 1) A).
      3. Cut the local data at the splitters: bucket b holds the keys in [splitter b-1, splitter b).
      4. all_to_all_single: bucket b goes to the b-th active rank, which merges what it receives.
      5. Rebalance: all-gather the bucket sizes and move every element to the rank that owns its
         global position, with one more all_to_all_single.
    """
    world, rank = dist.get_world_size(), dist.get_rank()
    dtype, device = local_shard.dtype, local_shard.device
    # Keys in fp32 (exact for bf16/fp16 values; CPU sort kernels lack half types on old torch).
    key_dtype = torch.promote_types(dtype, torch.float32)
    n = int(local_count.item())
    keys = torch.sort(local_shard[:n].to(key_dtype)).values

    # 1. Counts and active ranks.
    counts = [torch.empty_like(local_count) for _ in range(world)]
    dist.all_gather(counts, local_count)
    counts = [int(c.item()) for c in counts]
    active = [source for source in range(world) if counts[source] > 0]
    num_active = len(active)
    sorted_slice = torch.zeros_like(local_shard)
    if num_active == 0:
        return sorted_slice, torch.zeros_like(local_count)

    # 2. Regular samples (value, position); the rank is the gather slot.
    positions = torch.tensor([i * n // num_active for i in range(num_active)], dtype=torch.int64,
                             device=device)
    sample_values = keys[positions] if n > 0 else torch.zeros(num_active, dtype=key_dtype, device=device)
    gathered_values = [torch.empty_like(sample_values) for _ in range(world)]
    gathered_positions = [torch.empty_like(positions) for _ in range(world)]
    dist.all_gather(gathered_values, sample_values)
    dist.all_gather(gathered_positions, positions)
    all_values = torch.cat([gathered_values[source] for source in active])
    all_positions = torch.cat([gathered_positions[source] for source in active])
    all_ranks = torch.tensor(active, dtype=torch.int64, device=device).repeat_interleave(num_active)
    # Samples arrive ordered by (rank, position), so a stable sort by value orders them by key.
    order = torch.sort(all_values, stable=True).indices
    picks = order[num_active::num_active]  # A - 1 splitters
    split_values = all_values[picks]
    split_ranks = all_ranks[picks].tolist()
    split_positions = all_positions[picks].tolist()

    # 3. Cut the sorted local data: keys below a splitter (value, rank, position) are those with a
    # smaller value, plus the equal values when this rank is before the splitter's rank (or, on the
    # splitter's own rank, the positions before it).
    below_left = torch.searchsorted(keys, split_values).tolist()
    below_right = torch.searchsorted(keys, split_values, right=True).tolist()
    cuts = [0]
    for left, right, split_rank, split_position in zip(below_left, below_right, split_ranks,
                                                       split_positions):
        cuts.append(split_position if split_rank == rank else right if rank < split_rank else left)
    cuts.append(n)
    send_splits = [0] * world
    for bucket, destination in enumerate(active):
        send_splits[destination] = cuts[bucket + 1] - cuts[bucket]

    # 4. Exchange the buckets and merge.
    send_counts = torch.tensor(send_splits, dtype=torch.int64, device=device)
    recv_counts = torch.empty_like(send_counts)
    dist.all_to_all_single(recv_counts, send_counts)
    recv_splits = recv_counts.tolist()
    received = torch.empty(sum(recv_splits), dtype=dtype, device=device)
    dist.all_to_all_single(received, keys.to(dtype), output_split_sizes=recv_splits,
                           input_split_sizes=send_splits)
    merged = torch.sort(received.to(key_dtype)).values.to(dtype)

    # 5. Rebalance: rank s's bucket holds global positions [offset_s, offset_s + size_s).
    bucket_size = torch.tensor([merged.numel()], dtype=torch.int64, device=device)
    sizes = [torch.empty_like(bucket_size) for _ in range(world)]
    dist.all_gather(sizes, bucket_size)
    sizes = [int(s.item()) for s in sizes]
    offsets = [sum(sizes[:source]) for source in range(world)]
    base, extra = divmod(sum(sizes), world)
    starts = [r * base + min(r, extra) for r in range(world)]
    lengths = [base + (1 if r < extra else 0) for r in range(world)]
    mine = offsets[rank], offsets[rank] + sizes[rank]
    send_splits = [_overlap(*mine, starts[d], starts[d] + lengths[d]) for d in range(world)]
    recv_splits = [_overlap(offsets[s], offsets[s] + sizes[s], starts[rank], starts[rank] + lengths[rank])
                   for s in range(world)]
    balanced = torch.empty(lengths[rank], dtype=dtype, device=device)
    dist.all_to_all_single(balanced, merged, output_split_sizes=recv_splits,
                           input_split_sizes=send_splits)

    sorted_slice[:lengths[rank]] = balanced
    count = torch.tensor([lengths[rank]], dtype=torch.int64, device=device)
    return sorted_slice, count
