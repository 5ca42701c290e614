# pkb problem 025_importance_sampling_loss: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist
import torch.nn.functional as F

MAX_LOG_RATIO = 20.0


def global_sum(local: torch.Tensor) -> torch.Tensor:
    dist.all_reduce(local, op=dist.ReduceOp.SUM)
    return local


def solution(hidden: torch.Tensor, weight: torch.Tensor, labels: torch.Tensor,
             old_logprobs: torch.Tensor, advantages: torch.Tensor, ignore_index: int):
    """Importance-sampling policy-gradient loss with metrics, data-parallel over ranks.

    hidden [M, N], weight [V, N], old_logprobs [M], advantages [M] in the run's precision P;
    labels [M] int64 (ignore_index marks tokens that do not count). Per-token steps are in P.
        ce      = cross_entropy(hidden @ weight^T, labels), per token (0 where ignored)
        delta   = clamp(-ce - old_logprobs, -20, 20) where valid, else 0;  ratio = exp(delta)
        per_token_loss = -(ratio * advantages) where valid, else 0
        n       = number of valid tokens over all ranks (fp32, at least 1)
        true_pg = (sum over all ranks of per_token_loss) / n
        surrogate = (this rank's sum of ratio * advantages * ce over valid tokens) / n
        loss    = (true_pg + surrogate) - surrogate                         (fp32)
        metrics = [mean ratio, min ratio, max ratio, mean of (ratio - delta) - 1, mean ce],
                  over the valid tokens of all ranks (fp32; sums in P before dividing by n)
    Returns (loss 0-d fp32, per_token_logprobs = -ce [M] P, per_token_loss [M] P,
    metrics [5] fp32).
    """
    logits = hidden @ weight.t()
    ce = F.cross_entropy(logits, labels, ignore_index=ignore_index, reduction="none")
    new_logprobs = -ce
    valid = labels != ignore_index
    count = global_sum(valid.sum().float()).clamp(min=1)

    zero = torch.zeros_like(ce)
    delta = torch.where(valid, new_logprobs - old_logprobs, zero).clamp(-MAX_LOG_RATIO,
                                                                         MAX_LOG_RATIO)
    ratio = torch.exp(delta)
    weighted = torch.where(valid, ratio * advantages, zero)
    per_token_loss = torch.where(valid, -(ratio * advantages), zero)

    true_pg = global_sum(per_token_loss.sum()) / count
    surrogate = (weighted * ce).sum() / count  # local: not reduced across ranks
    loss = (true_pg + surrogate) - surrogate

    min_ratio = torch.where(valid, ratio, torch.full_like(ratio, float("inf"))).min()
    dist.all_reduce(min_ratio, op=dist.ReduceOp.MIN)
    max_ratio = torch.where(valid, ratio, torch.full_like(ratio, float("-inf"))).max()
    dist.all_reduce(max_ratio, op=dist.ReduceOp.MAX)
    metrics = torch.stack([
        global_sum(torch.where(valid, ratio, zero).sum()) / count,
        min_ratio.float(),
        max_ratio.float(),
        global_sum(torch.where(valid, ratio - delta - 1, zero).sum()) / count,
        global_sum(ce.sum()) / count,
    ])
    return loss, new_logprobs, per_token_loss, metrics
