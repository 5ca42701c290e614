# pkb problem 038_ulysses_gather_seq_scatter_heads_qkv: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(qkv: torch.Tensor) -> torch.Tensor:
    """Ulysses all-to-all on fused QKV: gather the sequence (dim 1), scatter the heads.

    qkv: (B, T, 3*C) with C = H*D and the last dim laid out as [q | k | v], each C wide.
    Each of q, k and v is split into W head slices of c = C / W columns; rank j receives slice j
    of q, of k and of v from every rank. The pieces from ranks 0..W-1 are concatenated along the
    sequence, so rank r returns out of shape (B, W*T, 3*c) with
    out[b, s*T + t, m*c + i] = qkv_s[b, t, m*C + r*c + i] for m = 0 (q), 1 (k), 2 (v).
    """
    world = dist.get_world_size()
    batch, seq, fused = qkv.shape
    per_qkv = qkv.view(batch, seq, 3, fused // 3)
    send = [piece.contiguous() for piece in torch.chunk(per_qkv, world, dim=3)]
    receive = [torch.empty_like(piece) for piece in send]
    dist.all_to_all(receive, send)
    gathered = torch.cat(receive, dim=1)  # (B, W*T, 3, c)
    return gathered.reshape(batch, world * seq, -1)
