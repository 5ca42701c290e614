# pkb problem 021_clip_grad_norm_no_ep: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(grad_0: torch.Tensor, grad_1: torch.Tensor, grad_2: torch.Tensor,
             max_norm: float, norm_type: float):
    """Global gradient-norm clipping over FSDP shards, in place.

    grad_0, grad_1, grad_2: (M, N), this rank's shards of three gradients.
    1. local = sum over the three of ||g.float()||_p ** p  (fp32)
    2. total_norm = (sum of local over all ranks) ** (1/p)  (fp32 all-reduce), a 0-d fp32 tensor
    3. if total_norm > max_norm: every g *= max_norm / total_norm, the coefficient converted to
       g's dtype first (in place).
    Returns (total_norm, grad_0, grad_1, grad_2), the gradients after clipping.
    """
    grads = [grad_0, grad_1, grad_2]
    local = torch.zeros((), dtype=torch.float32, device=grad_0.device)
    for g in grads:
        local += torch.linalg.vector_norm(g.float(), norm_type) ** norm_type
    dist.all_reduce(local, op=dist.ReduceOp.SUM)
    total_norm = local ** (1.0 / norm_type)
    if total_norm.item() > max_norm:
        coef = max_norm / total_norm
        for g in grads:
            g.mul_(coef.to(g.dtype))
    return total_norm, grad_0, grad_1, grad_2
