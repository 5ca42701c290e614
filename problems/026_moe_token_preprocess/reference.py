# pkb problem 026_moe_token_preprocess: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(mask: torch.Tensor):
    """MoE dispatch metadata for expert parallelism over W ranks.

    mask: (E, 2, M) fp32, mask[e, k, t] = 1 if token t chose expert e in slot k. Expert e lives on
    rank e // L, with L = E // W experts per rank. On rank r:
      cnt[e]        = sum over k, t of mask[e, k, t]                      (E,)
      in_splits[d]  = sum over l < L of cnt[d*L + l]: rows to send to d  (W,) int64
      G             = cnt of every rank, stacked in rank order           (W, E)
      tab           = G[:, r*L : (r+1)*L]                                (W, L) fp32
      out_splits[s] = sum over l of tab[s, l]: rows to receive from s    (W,) int64
      col[l]        = sum over s of tab[s, l]                            (L,) fp32
    Returns (in_splits, out_splits, tab, col).
    """
    world, rank = dist.get_world_size(), dist.get_rank()
    num_experts = mask.shape[0]
    local = num_experts // world

    counts = mask.sum(dim=(1, 2))  # fp32 like the mask; a token may pick one expert twice
    in_splits = counts.view(world, local).sum(dim=1).to(torch.int64)

    gathered = [torch.empty_like(counts) for _ in range(world)]
    dist.all_gather(gathered, counts)
    tab = torch.stack(gathered)[:, rank * local:(rank + 1) * local].contiguous()
    out_splits = tab.sum(dim=1).to(torch.int64)
    col = tab.sum(dim=0)
    return in_splits, out_splits, tab, col
