# pkb problem 011_allgather_gemm_at: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(A_local: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    """A = [A_0 | A_1 | ... | A_{W-1}] is (M, K), split by columns: rank r holds A_local = A_r
    (M, K/W). B (K, N) is this rank's own matrix (different on every rank).
    Returns C = A @ B (M, N), fp32 accumulation, rounded to P once.

    Route: gather the transposed blocks A_r^T (K/W, M) in rank order into A^T (K, M), compute
    B^T @ A^T = (A @ B)^T and transpose back."""
    world = dist.get_world_size()
    block_t = A_local.t().contiguous()
    A_t = torch.empty((world * block_t.shape[0], block_t.shape[1]), dtype=A_local.dtype,
                      device=A_local.device)
    dist.all_gather_into_tensor(A_t, block_t)
    C_t = torch.matmul(B.t().float(), A_t.float())  # fp32 accumulation
    return C_t.t().to(A_local.dtype).contiguous()
