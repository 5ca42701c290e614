# pkb problem 010_embedding_lookup: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(indices: torch.Tensor, local_shard: torch.Tensor) -> torch.Tensor:
    """Lookup in an embedding table whose rows are sharded over the ranks: rank r holds rows
    r*M .. r*M+M-1 of the global (W*M, N) table as local_shard (M, N). indices (M,) holds global
    row numbers in [0, W*M). Returns out (M, N) with out[k] = table[indices[k]].

    Each index goes to the rank that owns its row (three all-to-alls: request counts, requested
    indices, the rows back)."""
    world = dist.get_world_size()
    rank = dist.get_rank()
    rows_per_rank = local_shard.shape[0]

    # Group this rank's requests by owner, keeping their order within each group.
    owner = indices // rows_per_rank
    order = torch.sort(owner, stable=True).indices
    send_indices = indices[order].contiguous()
    send_counts = torch.bincount(owner, minlength=world)
    recv_counts = torch.empty_like(send_counts)
    dist.all_to_all_single(recv_counts, send_counts)
    send_splits = send_counts.tolist()
    recv_splits = recv_counts.tolist()

    # Serve the rows other ranks asked for, in the order they asked.
    recv_indices = torch.empty(sum(recv_splits), dtype=indices.dtype, device=indices.device)
    dist.all_to_all_single(recv_indices, send_indices, recv_splits, send_splits)
    served = local_shard[recv_indices - rank * rows_per_rank].contiguous()

    # The rows come back grouped by owner; put them back in the order of indices.
    grouped = torch.empty((indices.shape[0], local_shard.shape[1]), dtype=local_shard.dtype,
                          device=local_shard.device)
    dist.all_to_all_single(grouped, served, send_splits, recv_splits)
    out = torch.empty_like(grouped)
    out[order] = grouped
    return out
