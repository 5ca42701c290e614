# pkb problem 045_reducescatter_fused_rmsnorm: the PyTorch reference (shapes: problem.json).
import torch
import torch.distributed as dist


def solution(gamma: torch.Tensor, rs_input: torch.Tensor, eps: float) -> torch.Tensor:
    """Reduce-scatter, average, then RMSNorm of this rank's rows.

    gamma: (hid,), the norm weight, the same on every rank.
    rs_input: (W * rows * hid,), this rank's contribution; chunk s (rows * hid elements) goes to
    rank s.
    1. s = reduce_scatter_tensor SUM of rs_input (in P); x = P(s / W), viewed as (rows, hid)
    2. in fp32: y = x * rsqrt(mean(x^2 over the row) + eps) * gamma
    Returns y: (rows, hid) in P.
    """
    world = dist.get_world_size()
    hid = gamma.numel()
    chunk = torch.empty(rs_input.numel() // world, dtype=rs_input.dtype, device=rs_input.device)
    dist.reduce_scatter_tensor(chunk, rs_input, op=dist.ReduceOp.SUM)
    x = (chunk / world).view(-1, hid).float()
    normed = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps)
    return (normed * gamma.float()).to(rs_input.dtype)
