# pkb problem 085_distributed_sample_sort: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(local_shard: torch.Tensor, local_count: torch.Tensor):
    """Distributed sort with a balanced output split.

    local_shard: [C] in the run precision; this rank's values are local_shard[:n], n = local_count.
    local_count: [1] int64, n (may be 0).
    With T = sum of all ranks' counts, base = T // W and extra = T % W, rank r owns the sorted
    positions [st, st + len) with st = r * base + min(r, extra) and len = base + (r < extra).
    Returns sorted_slice: [C], sorted(all values)[st : st + len] followed by zeros, and
    count: [1] int64 = len.
    Any distributed sort (sample sort, bucket exchange, ...) gives the same result; this one
    gathers every shard and slices the sorted whole.
    """
    world, rank = dist.get_world_size(), dist.get_rank()
    counts = [torch.empty_like(local_count) for _ in range(world)]
    dist.all_gather(counts, local_count)
    shards = [torch.empty_like(local_shard) for _ in range(world)]
    dist.all_gather(shards, local_shard.contiguous())
    values = torch.cat([shard[:int(n.item())] for shard, n in zip(shards, counts)])
    # Sorting in fp32 is exact for bf16/fp16 values (CPU sort kernels lack half types on old torch).
    ordered = torch.sort(values.float()).values.to(local_shard.dtype)

    base, extra = divmod(values.numel(), world)
    start = rank * base + min(rank, extra)
    length = base + (1 if rank < extra else 0)
    sorted_slice = torch.zeros_like(local_shard)
    sorted_slice[:length] = ordered[start:start + length]
    count = torch.tensor([length], dtype=torch.int64, device=local_shard.device)
    return sorted_slice, count
