# pkb problem 033_ulysses_all_to_all_tensor_primitive: the PyTorch reference (shapes and dtypes:
# problem.json).
import torch
import torch.distributed as dist


def solution(x: torch.Tensor, scatter_dim: int, gather_dim: int) -> torch.Tensor:
    """Ulysses all-to-all on one tensor.

    x: [M, N] in the run precision; W divides M. x is split along scatter_dim (0) into W equal
    blocks; block j goes to rank j. The W blocks a rank receives are concatenated along
    gather_dim (1) in source-rank order:
        out[i, s*N + c] = x_s[rank*(M/W) + i, c]        out: [M/W, W*N]
    """
    world = dist.get_world_size()
    send = [block.contiguous() for block in torch.chunk(x, world, dim=scatter_dim)]
    received = [torch.empty_like(send[0]) for _ in range(world)]
    dist.all_to_all(received, send)
    return torch.cat(received, dim=gather_dim).contiguous()
