# pkb problem 087_conv2d_boundary_exchange: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist
import torch.nn.functional as F


def solution(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor):
    """3x3 convolution of an image split by rows over the ranks, with halo rows from neighbours.

    x: (1, C, Hl, Wd), rows r*Hl ... of a global image of height W*Hl; weight: (C, C, 3, 3) and
    bias: (C,) are this rank's own. Every rank all-gathers every rank's (top row, bottom row) pair;
    then xp = [rank r-1's bottom row (zeros on rank 0) | x | rank r+1's top row (zeros on rank
    W-1)] along the height, and
      y = conv2d(xp, weight, bias, stride 1, padding 0 in height and 1 in width)
    computed in fp32 and rounded once. Returns y (1, C, Hl, Wd).
    """
    world, rank = dist.get_world_size(), dist.get_rank()
    boundary = torch.stack([x[:, :, 0], x[:, :, -1]]).contiguous()  # (2, 1, C, Wd): top, bottom
    gathered = [torch.empty_like(boundary) for _ in range(world)]
    dist.all_gather(gathered, boundary)

    above = gathered[rank - 1][1] if rank > 0 else torch.zeros_like(boundary[1])
    below = gathered[rank + 1][0] if rank < world - 1 else torch.zeros_like(boundary[0])
    padded = torch.cat([above.unsqueeze(2), x, below.unsqueeze(2)], dim=2)
    y = F.conv2d(padded.float(), weight.float(), bias.float(), stride=1, padding=(0, 1))
    return y.to(x.dtype)
