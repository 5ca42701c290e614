# pkb problem 037_ulysses_gather_heads_scatter_seq: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(x: torch.Tensor) -> torch.Tensor:
    """Ulysses all-to-all: gather heads, scatter the sequence (dim 1 = sequence, dim 2 = heads).

    x: (B, T, H, D), every sequence position of this rank's H heads.
    The sequence is zero-padded at the end to T' = ceil(T / W) * W and split into W blocks of
    T' / W positions; block j goes to rank j. The blocks received from ranks 0..W-1 are
    concatenated along the head dimension, so rank r returns out of shape (B, T' / W, W * H, D) with
    out[b, t, s*H + i, d] = x_s[b, r*(T'/W) + t, i, d].
    """
    world = dist.get_world_size()
    batch, seq, heads, head_dim = x.shape
    padded = -(-seq // world) * world
    if padded != seq:
        pad = torch.zeros(batch, padded - seq, heads, head_dim, dtype=x.dtype, device=x.device)
        x = torch.cat([x, pad], dim=1)
    send = [block.contiguous() for block in torch.chunk(x, world, dim=1)]
    receive = [torch.empty_like(block) for block in send]
    dist.all_to_all(receive, send)
    return torch.cat(receive, dim=2)
