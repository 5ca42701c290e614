# pkb problem 043_fused_adam_grad_unshard_allgather: the PyTorch reference (shapes: problem.json).
import torch
import torch.distributed as dist


def solution(grad_shard: torch.Tensor, master_shard: torch.Tensor, exp_avg: torch.Tensor,
             exp_avg_sq: torch.Tensor, lr: float, beta1: float, beta2: float, eps: float,
             step: int) -> torch.Tensor:
    """One Adam step on this rank's shard of the master weights, then an all-gather.

    grad_shard, master_shard, exp_avg, exp_avg_sq: (Psz,), this rank's shard (the gradient is
    used as it is: no reduction). Every step below computes in fp32 and rounds once to P, the
    shards' dtype (rnd):
        m  = rnd(rnd(beta1 * m) + (1 - beta1) * g)
        v  = rnd(rnd(beta2 * v) + (1 - beta2) * g * g)
        mh = rnd(m / (1 - beta1 ** step));  vh = rnd(v / (1 - beta2 ** step))
        d  = rnd(rnd(sqrt(vh)) + eps)
        p  = rnd(p + rnd(rnd(mh / d) * (-lr)))          (no weight decay)
    Returns master: (W * Psz,), the updated shards of all ranks in rank order. The moments are
    updated on copies and not returned.
    """
    dtype = master_shard.dtype
    g = grad_shard.float()
    m = (exp_avg.float() * beta1).to(dtype)
    m = (m.float() + (1 - beta1) * g).to(dtype)
    v = (exp_avg_sq.float() * beta2).to(dtype)
    v = (v.float() + (1 - beta2) * g * g).to(dtype)
    # Divide by tensors: a GPU divides by a Python scalar as a multiply by its reciprocal.
    correction1 = torch.full((), 1 - beta1 ** step, dtype=torch.float32, device=g.device)
    correction2 = torch.full((), 1 - beta2 ** step, dtype=torch.float32, device=g.device)
    m_hat = (m.float() / correction1).to(dtype)
    v_hat = (v.float() / correction2).to(dtype)
    denom = torch.sqrt(v_hat.float()).to(dtype)
    denom = (denom.float() + eps).to(dtype)
    ratio = (m_hat.float() / denom.float()).to(dtype)
    update = (ratio.float() * -lr).to(dtype)
    new_shard = (master_shard.float() + update.float()).to(dtype)

    master = torch.empty(dist.get_world_size() * new_shard.numel(), dtype=dtype,
                         device=new_shard.device)
    dist.all_gather_into_tensor(master, new_shard)
    return master
