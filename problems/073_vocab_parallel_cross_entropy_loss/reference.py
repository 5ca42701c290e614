# pkb problem 073_vocab_parallel_cross_entropy_loss: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Cross-entropy loss with the vocabulary sharded over the ranks (Megatron style).

    logits: [Bt, T, V/W] in the run's precision P, this rank's vocabulary ids
    [rank * V/W, (rank + 1) * V/W) of the logits [Bt, T, V]. target: [Bt, T] int64 global ids,
    the same on every rank. With every element-wise step rounded to P:
        m    = all_reduce_max(max_v logits)                       [Bt, T]
        z    = logits - m                                         (a copy; the input stays as is)
        pred = all_reduce_sum(z[target] on the rank that owns the target, 0 elsewhere)
        se   = all_reduce_sum(sum_v exp(z_v))   (exp rounded to P, the sum accumulated in fp32)
        loss = log(se) - pred
    Returns loss: [Bt, T] in P, the same on every rank.
    """
    dtype = logits.dtype
    vocab_local = logits.shape[-1]
    rank = dist.get_rank()

    row_max = logits.float().max(dim=-1)[0].to(dtype)
    dist.all_reduce(row_max, op=dist.ReduceOp.MAX)
    shifted = logits - row_max.unsqueeze(-1)

    local_target = target - rank * vocab_local
    owned = (local_target >= 0) & (local_target < vocab_local)
    picked = shifted.gather(-1, local_target.clamp(0, vocab_local - 1).unsqueeze(-1)).squeeze(-1)
    predicted = torch.where(owned, picked, torch.zeros_like(picked))
    dist.all_reduce(predicted, op=dist.ReduceOp.SUM)

    sum_exp = shifted.float().exp().to(dtype).float().sum(dim=-1).to(dtype)
    dist.all_reduce(sum_exp, op=dist.ReduceOp.SUM)
    return sum_exp.float().log().to(dtype) - predicted
