# pkb problem 022_clip_grad_norm_ep: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(non_ep_grad: torch.Tensor, ep_grad: torch.Tensor, max_norm: float,
             norm_type: float, groups: dict):
    """Global gradient-norm clipping with expert-parallel (EP) parameters, in place.

    non_ep_grad: (M, N), this rank's shard of a dense gradient, sharded over the whole world.
    ep_grad: (M, N), this rank's shard of an expert gradient.
    groups["ep"]: the EP group, the contiguous halves of the world; ep_size = its size.
    groups["ep_fsdp"]: the EP-FSDP group, the pairs {i, i + W/2}; with the EP group it tiles
    the world.
    1. if ep_size > 1: ep_grad *= 1 / ep_size (in place, in its dtype)
    2. dense = sum over all ranks of ||non_ep_grad.float()||_p ** p  (fp32, world all-reduce)
    3. expert = sum over all ranks of ||ep_grad.float()||_p ** p  (fp32, all-reduce over the
       EP-FSDP group, then over the EP group)
    4. total_norm = (dense + expert) ** (1/p), a 0-d fp32 tensor
    5. if total_norm > max_norm: both gradients *= max_norm / total_norm, the coefficient
       converted to their dtype first (in place).
    Returns (total_norm, non_ep_grad, ep_grad) after scaling and clipping.
    """
    ep_group, ep_fsdp_group = groups["ep"], groups["ep_fsdp"]
    ep_size = dist.get_world_size(ep_group)
    if ep_size > 1:
        ep_grad.mul_(1.0 / ep_size)

    dense = torch.linalg.vector_norm(non_ep_grad.float(), norm_type) ** norm_type
    dist.all_reduce(dense, op=dist.ReduceOp.SUM)
    expert = torch.linalg.vector_norm(ep_grad.float(), norm_type) ** norm_type
    dist.all_reduce(expert, op=dist.ReduceOp.SUM, group=ep_fsdp_group)
    dist.all_reduce(expert, op=dist.ReduceOp.SUM, group=ep_group)
    total_norm = (dense + expert) ** (1.0 / norm_type)

    if total_norm.item() > max_norm:
        coef = max_norm / total_norm
        for g in (non_ep_grad, ep_grad):
            g.mul_(coef.to(g.dtype))
    return total_norm, non_ep_grad, ep_grad
