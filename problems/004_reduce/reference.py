# pkb problem 004_reduce: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(x: torch.Tensor, dst: int = 0) -> torch.Tensor:
    """On rank dst: y = x_0 + ... + x_{W-1}. On every other rank: y = x, unchanged
    (NCCL writes the reduce buffer on the destination only)."""
    y = x.clone()
    dist.reduce(y, dst=dst, op=dist.ReduceOp.SUM)
    return y
