# pkb problem 036_ulysses_gather_seq_scatter_heads: the PyTorch reference (shapes and dtypes:
# problem.json).
import torch
import torch.distributed as dist


def solution(x: torch.Tensor, seq_dim: int, head_dim: int) -> torch.Tensor:
    """Ulysses: from a local sequence shard with all heads to the full sequence with local heads.

    x: [B, T, H, D] in the run precision, this rank's T sequence positions for all H heads; W
    divides H. The heads are split into W contiguous groups of h = H/W; group j goes to rank j.
    The pieces a rank receives are concatenated along the sequence in source-rank order:
        out[b, s*T + t, i, d] = x_s[b, t, rank*h + i, d]        out: [B, W*T, h, D]
    """
    world = dist.get_world_size()
    send = [group.contiguous() for group in torch.chunk(x, world, dim=head_dim)]
    received = [torch.empty_like(send[0]) for _ in range(world)]
    dist.all_to_all(received, send)
    return torch.cat(received, dim=seq_dim).contiguous()
