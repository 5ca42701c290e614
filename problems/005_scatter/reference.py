# pkb problem 005_scatter: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(chunks: torch.Tensor) -> torch.Tensor:
    """y = chunks_0[r] on rank r: rank 0 holds chunks[W, M, N]; other ranks' chunks are empty
    (shape (0, M, N)) and carry only the shape of a chunk."""
    y = torch.empty(chunks.shape[1:], dtype=chunks.dtype, device=chunks.device)
    scatter_list = list(chunks.unbind(0)) if dist.get_rank() == 0 else None
    dist.scatter(y, scatter_list, src=0)
    return y
