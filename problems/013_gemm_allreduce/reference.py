# pkb problem 013_gemm_allreduce: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(A_local: torch.Tensor, B_local: torch.Tensor) -> torch.Tensor:
    """Each rank holds its own A_local (M, K) and B_local (K, N), with the full K.
    Returns C = sum over ranks s of A_s @ B_s (M, N), the same on every rank. Each product is
    computed with fp32 accumulation and rounded to P before the cross-rank sum."""
    # fp32 accumulation, rounded to P before the sum over ranks
    C = torch.matmul(A_local.float(), B_local.float()).to(A_local.dtype)
    dist.all_reduce(C, op=dist.ReduceOp.SUM)
    return C
