# pkb problem 030_moe_epgroupgemm_lora_backward: the PyTorch reference (shapes and dtypes:
# problem.json).
import torch
import torch.distributed as dist


def solution(g1: torch.Tensor, g2: torch.Tensor, g3: torch.Tensor):
    """All-reduce (sum over ranks) of three LoRA adapter gradients, in place.

    g1, g2: (R, N); g3: (N, R); all in the run precision. Each is replaced by its sum over all
    ranks (g_i <- g_i on rank 0 + ... + g_i on rank W-1), and the three are returned.
    """
    for grad in (g1, g2, g3):
        dist.all_reduce(grad, op=dist.ReduceOp.SUM)
    return g1, g2, g3
