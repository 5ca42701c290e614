# pkb problem 076_opensora_conv3d_allreduce: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist
import torch.nn.functional as F


def solution(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor):
    """Conv3d split over input channels (Open-Sora's tensor-parallel conv).

    x: (1, Cl, T, H, Wd), this rank's input channels; weight: (Co, Cl, 3, 3, 3), the matching
    slice of the kernel; bias: (Co,), the same on every rank.
      part = conv3d(x, weight)       stride 1, no padding, no bias; fp32 accumulation, rounded
      total = all_reduce(part, SUM)
      out = total + bias             computed in fp32, rounded once
    Returns out (1, Co, T-2, H-2, Wd-2), the same on every rank.
    """
    part = F.conv3d(x.float(), weight.float()).to(x.dtype)
    dist.all_reduce(part, op=dist.ReduceOp.SUM)
    out = part.float() + bias.float().view(1, -1, 1, 1, 1)
    return out.to(x.dtype)
