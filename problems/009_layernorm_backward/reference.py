# pkb problem 009_layernorm_backward: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(X_hat: torch.Tensor, dY: torch.Tensor):
    """Data-parallel LayerNorm backward, parameter gradients only. X_hat and dY are (M, N): this
    rank's rows (tokens) of the normalized input and of the output gradient.

    Per rank, summing over the M rows (axis 0) with fp32 accumulation and rounding to P:
        d_beta_r  = sum_i dY[i, :]
        d_gamma_r = sum_i (dY * X_hat)[i, :]      (each product first rounded to P)
    Then both length-N vectors are summed over ranks (d_beta first). Returns (d_gamma, d_beta),
    identical on every rank."""
    d_beta = dY.sum(dim=0, dtype=torch.float32).to(dY.dtype)
    d_gamma = (dY * X_hat).sum(dim=0, dtype=torch.float32).to(dY.dtype)
    dist.all_reduce(d_beta, op=dist.ReduceOp.SUM)
    dist.all_reduce(d_gamma, op=dist.ReduceOp.SUM)
    return d_gamma, d_beta
