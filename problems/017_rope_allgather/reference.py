# pkb problem 017_rope_allgather: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    """[x1, x2] -> [-x2, x1] along the last axis (x1, x2 its two halves)."""
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def gather_sequence(x: torch.Tensor) -> torch.Tensor:
    """Every rank's x concatenated along axis 1 (the sequence axis) in rank order."""
    shards = [torch.empty_like(x) for _ in range(dist.get_world_size())]
    dist.all_gather(shards, x.contiguous())
    return torch.cat(shards, dim=1)


def solution(q_local: torch.Tensor, k_local: torch.Tensor, cos_local: torch.Tensor,
             sin_local: torch.Tensor):
    """Rotary embedding on a sequence shard, then an all-gather along the sequence.

    q_local, k_local: (B, S, H, D), this rank's S positions of the sequence.
    cos_local, sin_local: (B, S, D), shared by all H heads.
    x_emb = x * cos + rotate_half(x) * sin, in the inputs' dtype (each product and the sum
    rounded to it). Returns (q_glob, k_glob), each (B, W*S, H, D): the embedded shards of all
    ranks concatenated along axis 1 in rank order, the same on every rank.
    """
    cos = cos_local.unsqueeze(2)  # broadcast over heads
    sin = sin_local.unsqueeze(2)
    q_emb = q_local * cos + rotate_half(q_local) * sin
    k_emb = k_local * cos + rotate_half(k_local) * sin
    return gather_sequence(q_emb), gather_sequence(k_emb)
