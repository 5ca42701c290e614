# pkb problem 024_load_balancing_loss_fn: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(gate_logits: torch.Tensor, num_experts: int, top_k: int) -> torch.Tensor:
    """Mixture-of-experts load-balancing loss, averaged over ranks.

    gate_logits: [M, num_experts] router logits in the run's precision P.
        probs         = softmax(gate_logits) over experts, in P
        selected      = indices of the top_k probs per token
        f[k, e]       = fraction of the M tokens whose k-th choice is expert e (fp32)
        mean_prob[e]  = mean of probs over tokens (rounded to P)
        L             = num_experts * sum over k, e of f[k, e] * mean_prob[e]   (fp32)
    Returns loss: 0-d fp32, the mean of L over ranks.
    """
    probs = torch.softmax(gate_logits, dim=-1)
    _, selected = torch.topk(probs, top_k, dim=-1)
    tokens_per_expert = torch.nn.functional.one_hot(selected, num_experts).float().mean(dim=0)
    prob_per_expert = probs.mean(dim=0)
    loss = (tokens_per_expert * prob_per_expert.unsqueeze(0)).sum() * num_experts
    dist.all_reduce(loss, op=dist.ReduceOp.SUM)
    return loss / dist.get_world_size()
