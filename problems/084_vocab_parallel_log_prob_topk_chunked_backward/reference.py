# pkb problem 084_vocab_parallel_log_prob_topk_chunked_backward: the PyTorch reference (shapes and dtypes: problem.json).
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


def chunk_grad(slice_, target, grad_output, top_k, top_p):
    """Gradient [Ct, V/W] (fp32) for this rank's vocabulary slice of one chunk: slice_ [Ct, V/W],
    target [Ct], grad_output [Ct]. Rank r computes the rows of the chunk's tokens
    [r * Ct/W, (r + 1) * Ct/W) and sends vocabulary block d of them back to rank d."""
    rank, world = dist.get_rank(), dist.get_world_size()
    tokens, vocab_local = slice_.shape
    tokens_local = tokens // world
    mine = slice(rank * tokens_local, (rank + 1) * tokens_local)

    received = torch.empty_like(slice_)
    dist.all_to_all_single(received, slice_.contiguous())
    rows = received.reshape(world, tokens_local, vocab_local).permute(1, 0, 2)
    rows = rows.reshape(tokens_local, world * vocab_local)

    keep = keep_mask(rows, top_k, top_p)
    probs = torch.softmax(rows.float().masked_fill(~keep, float("-inf")), dim=-1)
    onehot = torch.zeros_like(probs).scatter(-1, target[mine].unsqueeze(-1), 1.0)
    g = grad_output[mine].float().unsqueeze(-1)
    grad_rows = torch.where(keep, g * (onehot - probs), torch.zeros_like(probs))

    send = grad_rows.reshape(tokens_local, world, vocab_local).permute(1, 0, 2)
    send = send.reshape(world * tokens_local, vocab_local).contiguous()
    grad_slice = torch.empty_like(send)
    dist.all_to_all_single(grad_slice, send)
    return grad_slice


def solution(logits: torch.Tensor, target: torch.Tensor, grad_output: torch.Tensor, top_k: int,
             top_p: float, chunk_size: int) -> torch.Tensor:
    """Backward of the vocab-parallel, chunked top-k/top-p target log-probability.

    logits: [Bt, S, V/W] in the run's precision P, this rank's vocabulary slice
    [rank * V/W, (rank + 1) * V/W) of the logits [Bt, S, V]. target: [Bt, S] int64 global ids
    and grad_output: [Bt, S] bf16 (the gradient of each token's log-prob), the same on every
    rank. The flattened tokens are processed in chunks of Bt * chunk_size. Within a chunk, an
    all_to_all_single gives rank r the full rows of its share of the chunk's tokens; with K the
    keep mask of the filter (keep_mask), p = softmax of the filtered row in fp32 (zero where
    K is false) and g the token's grad_output in fp32:
        grad[v] = K[v] * g * ([v == target] - p[v])
    and a second all_to_all_single returns each rank its vocabulary slice of the chunk's rows.
    Returns grad_logits: [Bt, S, V/W] fp32, this rank's vocabulary slice.
    """
    batch, seq, vocab_local = logits.shape
    slice_all = logits.reshape(-1, vocab_local)
    target_all = target.reshape(-1)
    grad_all = grad_output.reshape(-1)
    chunk = batch * chunk_size
    results = []
    for start in range(0, slice_all.shape[0], chunk):
        end = start + chunk
        results.append(chunk_grad(slice_all[start:end], target_all[start:end],
                                  grad_all[start:end], top_k, top_p))
    return torch.cat(results).reshape(batch, seq, vocab_local)
