# pkb problem 035_ulysses_all_gather_variable_primitive: the PyTorch reference (shapes and dtypes:
# problem.json).
import torch
import torch.distributed as dist


def solution(x: torch.Tensor, gather_dim: int) -> torch.Tensor:
    """All-gather of tensors whose shapes may differ along gather_dim.

    x: [M, N] in the run precision (here every rank has the same shape). First every rank's shape
    is gathered (int64), then one receive buffer per rank is allocated with that rank's shape and
    the tensors are gathered. Returns them concatenated along gather_dim (0) in rank order:
    out: [sum of the ranks' M, N] = [W*M, N], the same on every rank.
    """
    world = dist.get_world_size()
    shape = torch.tensor(x.shape, dtype=torch.int64, device=x.device)
    shapes = [torch.empty_like(shape) for _ in range(world)]
    dist.all_gather(shapes, shape)
    received = [torch.empty(tuple(s.tolist()), dtype=x.dtype, device=x.device) for s in shapes]
    dist.all_gather(received, x.contiguous())
    return torch.cat(received, dim=gather_dim)
