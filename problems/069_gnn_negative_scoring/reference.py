# pkb problem 069_gnn_negative_scoring: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def gather_variable(local: torch.Tensor) -> torch.Tensor:
    """Concatenates every rank's tensor along dim 0, in rank order; lengths differ per rank."""
    rank, world = dist.get_rank(), dist.get_world_size()
    sizes = torch.zeros(world, dtype=torch.int64, device=local.device)
    sizes[rank] = local.shape[0]
    dist.all_reduce(sizes, op=dist.ReduceOp.SUM)
    received = sizes.tolist()
    out = local.new_empty((sum(received),) + tuple(local.shape[1:]))
    # Every rank sends its whole tensor to every peer: an all-gather of unequal sizes.
    dist.all_to_all_single(out, local.repeat((world,) + (1,) * (local.dim() - 1)),
                           output_split_sizes=received, input_split_sizes=[local.shape[0]] * world)
    return out


def solution(local_pos_scores: torch.Tensor, local_neg_scores: torch.Tensor) -> torch.Tensor:
    """Rank of each positive edge among its negatives, over the edges of all ranks.

    local_pos_scores: (n_r,); local_neg_scores: (n_r, K); n_r differs per rank.
      pos, neg = the variable-size all-gathers of both (rank order)   (Np,), (Np, K)
      s = sigmoid of the scores, rounded to P
      ranks[i] = 1 + #{j : s(neg[i, j]) > s(pos[i])}                 (Np,) int64
    i.e. the 1-based position of the positive in a descending sort of [pos_i, neg_i, :] that puts
    the positive first among equal values. The same on every rank.
    """
    pos = gather_variable(local_pos_scores)
    neg = gather_variable(local_neg_scores)
    # sigmoid in fp32, rounded once to P (CPU torch has no fp16 sigmoid)
    pos_sig = torch.sigmoid(pos.float()).to(pos.dtype)
    neg_sig = torch.sigmoid(neg.float()).to(neg.dtype)
    return 1 + (neg_sig > pos_sig.unsqueeze(1)).sum(dim=1)
