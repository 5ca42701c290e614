# pkb problem 083_vocab_parallel_log_prob_topk_chunked: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def keep_mask(rows, top_k, top_p):
    """Top-k then top-p keep mask [n, V] (bool) for full-vocabulary rows [n, V] in P.

    Sort each row ascending (in fp32, exact for P values). Top-k keeps the entries >= the
    top_k-th largest (ties at the threshold are all kept). p = softmax of the kept sorted
    entries, rounded to P; c = cumsum(p), accumulated in fp32 and rounded to P; top-p keeps the
    positions with c > rnd_P(1 - top_p), and always the largest entry. The mask is scattered
    back to vocabulary order.
    """
    dtype = rows.dtype
    sorted_rows, order = torch.sort(rows.float(), dim=-1)
    vocab = rows.shape[-1]
    in_top_k = sorted_rows >= sorted_rows[:, vocab - top_k:vocab - top_k + 1]
    probs = torch.softmax(sorted_rows.masked_fill(~in_top_k, float("-inf")), dim=-1).to(dtype)
    cumulative = probs.float().cumsum(dim=-1).to(dtype)
    threshold = torch.tensor(1 - top_p, dtype=dtype)
    keep_sorted = in_top_k & (cumulative.float() > threshold.float())
    keep_sorted[:, -1] = True
    return torch.zeros_like(keep_sorted).scatter(-1, order, keep_sorted)


def chunk_log_probs(slice_, target, top_k, top_p):
    """Target log-probs [Ct] of one chunk: slice_ [Ct, V/W] (this rank's vocabulary, the chunk's
    tokens), target [Ct]. Rank r handles the chunk's tokens [r * Ct/W, (r + 1) * Ct/W)."""
    rank, world = dist.get_rank(), dist.get_world_size()
    tokens, vocab_local = slice_.shape
    tokens_local = tokens // world

    received = torch.empty_like(slice_)
    dist.all_to_all_single(received, slice_.contiguous())
    rows = received.reshape(world, tokens_local, vocab_local).permute(1, 0, 2)
    rows = rows.reshape(tokens_local, world * vocab_local)

    keep = keep_mask(rows, top_k, top_p)
    log_probs = torch.log_softmax(rows.float().masked_fill(~keep, float("-inf")), dim=-1)
    mine = target[rank * tokens_local:(rank + 1) * tokens_local]
    values = log_probs.gather(-1, mine.unsqueeze(-1)).squeeze(-1).contiguous()

    parts = [torch.empty_like(values) for _ in range(world)]
    dist.all_gather(parts, values)
    return torch.cat(parts)


def solution(logits: torch.Tensor, target: torch.Tensor, top_k: int, top_p: float,
             chunk_size: int) -> torch.Tensor:
    """Log-probability of each token's target after top-k/top-p filtering, vocab-parallel, in
    token chunks.

    logits: [Bt, S, V/W] in the run's precision P, this rank's vocabulary slice
    [rank * V/W, (rank + 1) * V/W) of the logits [Bt, S, V]. target: [Bt, S] int64 global ids,
    the same on every rank. The flattened tokens are processed in chunks of Bt * chunk_size;
    within a chunk, rank r gets the full rows of its share of the chunk's tokens through an
    all_to_all_single, filters each row (keep_mask; dropped entries become -inf), takes the
    fp32 log_softmax at the target, and an all_gather collects the chunk's values in rank order.
    Returns logprob: [Bt, S] fp32, the same on every rank (-inf where the target was dropped).
    """
    batch, seq, vocab_local = logits.shape
    slice_all = logits.reshape(-1, vocab_local)
    target_all = target.reshape(-1)
    chunk = batch * chunk_size
    results = []
    for start in range(0, slice_all.shape[0], chunk):
        results.append(chunk_log_probs(slice_all[start:start + chunk],
                                       target_all[start:start + chunk], top_k, top_p))
    return torch.cat(results).reshape(batch, seq)
