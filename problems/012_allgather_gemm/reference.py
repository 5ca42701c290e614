# pkb problem 012_allgather_gemm: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(A_local: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    """A = [A_0 | A_1 | ... | A_{W-1}] is (M, K), split by columns: rank r holds A_local = A_r
    (M, K/W). B (K, N) is this rank's own matrix (different on every rank).
    Returns C = A @ B (M, N), fp32 accumulation, rounded to P once."""
    world = dist.get_world_size()
    blocks = [torch.empty_like(A_local) for _ in range(world)]
    dist.all_gather(blocks, A_local.contiguous())
    A = torch.cat(blocks, dim=1)  # columns in rank order
    return torch.matmul(A.float(), B.float()).to(A.dtype)  # fp32 accumulation, one rounding
