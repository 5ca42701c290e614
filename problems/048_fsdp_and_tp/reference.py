# pkb problem 048_fsdp_and_tp: the PyTorch reference (shapes and groups: problem.json).
import torch
import torch.nn.functional as F
import torch.distributed as dist


def solution(x_local: torch.Tensor, W1_shard: torch.Tensor, W2_shard: torch.Tensor,
             W3_shard: torch.Tensor, groups: dict) -> torch.Tensor:
    """A SwiGLU MLP y = (silu(X W1) * (X W2)) W3 on a 2-D grid: FSDP over the weights' D axis,
    tensor parallelism over Dff.

    groups["tp"]: n_tp contiguous ranks; groups["fsdp"]: n_fsdp ranks strided by n_tp.
    Rank r has tp = r mod n_tp (its Dff slice) and fs = r // n_tp (its batch rows, and its D block
    of the weights).
    x_local: (Bf, D), this rank's batch rows.
    W1_shard, W2_shard: (D / n_fsdp, Dff / n_tp), block (fs, tp) of the (D, Dff) weights.
    W3_shard: (Dff / n_tp, D / n_fsdp), block (tp, fs) of the (Dff, D) weight.
    1. all_gather (list) over the FSDP group: W1 = cat(W1 shards, dim 0) -> (D, Dff / n_tp),
       W2 likewise, W3 = cat(W3 shards, dim 1) -> (Dff / n_tp, D)
    2. with rnd = rounding to P and GEMMs accumulated in fp32:
       x1 = rnd(x W1); x2 = rnd(x W2); z = rnd(rnd(silu(x1)) * x2); y_p = rnd(z W3)
    3. y = all_reduce SUM of y_p over the TP group (in P)
    Returns y: (Bf, D), the same on every rank of a TP group.
    """
    tp_group, fsdp_group = groups["tp"], groups["fsdp"]
    n_fsdp = dist.get_world_size(fsdp_group)
    dtype = x_local.dtype

    def gather(shard, dim):
        parts = [torch.empty_like(shard) for _ in range(n_fsdp)]
        dist.all_gather(parts, shard.contiguous(), group=fsdp_group)
        return torch.cat(parts, dim=dim)

    def gemm(a, b):
        return torch.matmul(a.float(), b.float()).to(dtype)

    w1, w2, w3 = gather(W1_shard, 0), gather(W2_shard, 0), gather(W3_shard, 1)
    x1 = gemm(x_local, w1)
    x2 = gemm(x_local, w2)
    activated = F.silu(x1.float()).to(dtype)
    z = (activated.float() * x2.float()).to(dtype)
    y = gemm(z, w3)
    dist.all_reduce(y, op=dist.ReduceOp.SUM, group=tp_group)
    return y
