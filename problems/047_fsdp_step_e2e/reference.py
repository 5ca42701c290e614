# pkb problem 047_fsdp_step_e2e: the PyTorch reference (shapes: problem.json).
import torch
import torch.distributed as dist


def solution(X_local, y_local, flat_param_shard, exp_avg_shard, exp_avg_sq_shard, lr: float,
             beta1: float, beta2: float, eps: float, weight_decay: float, step: int):
    """One FSDP step of the MLP o = relu(X W1^T + b1) W2^T + b2 with a local MSE loss.

    X_local: (chunk, d_in), y_local: (chunk, d_out): this rank's batch rows.
    flat_param_shard: (part,), slice rank of the flat (W1 (hid, d_in), b1 (hid), W2 (d_out, hid),
    b2 (d_out)), of total length T = W * part; exp_avg_shard, exp_avg_sq_shard: (part,).
    rnd = rounding to P (the tensors' dtype); GEMMs accumulate in fp32 and round once.
    1. all_gather_into_tensor the shards, unflatten (hid = (T - d_out) / (d_in + 1 + d_out))
    2. pre = rnd(X W1^T + b1); h = relu(pre); o = rnd(h W2^T + b2)
       loss = mean((o - y)^2); its gradient dO = rnd(rnd(o - y) * 2 / (chunk * d_out))
       gW2 = rnd(dO^T h); gb2 = rnd(sum_rows dO); dH = rnd(dO W2); dPre = dH * (pre > 0)
       gW1 = rnd(dPre^T X); gb1 = rnd(sum_rows dPre)
    3. reduce_scatter_tensor SUM (in P) of the flat gradient; g = rnd(g / W)
    4. AdamW on copies, each step in fp32 rounded once:
       m = rnd(rnd(beta1 m) + (1 - beta1) g); v = rnd(rnd(beta2 v) + (1 - beta2) g g)
       mh = rnd(m / (1 - beta1^step)); vh = rnd(v / (1 - beta2^step)); d = rnd(rnd(sqrt(vh)) + eps)
       theta = rnd(theta0 + (-lr) rnd(mh / d)); theta = rnd(theta + (-lr wd) theta0)
    Returns (theta, exp_avg, exp_avg_sq), each (part,).
    """
    dtype = flat_param_shard.dtype
    world = dist.get_world_size()
    chunk, d_in = X_local.shape
    d_out = y_local.shape[1]
    total = world * flat_param_shard.numel()
    hid = (total - d_out) // (d_in + 1 + d_out)

    flat = torch.empty(total, dtype=dtype, device=flat_param_shard.device)
    dist.all_gather_into_tensor(flat, flat_param_shard)
    sizes = [hid * d_in, hid, d_out * hid, d_out]
    w1, b1, w2, b2 = torch.split(flat, sizes)
    w1, w2 = w1.view(hid, d_in), w2.view(d_out, hid)

    def gemm(a, b):
        return torch.matmul(a.float(), b.float()).to(dtype)

    x = X_local
    pre = (torch.matmul(x.float(), w1.float().t()) + b1.float()).to(dtype)
    h = torch.where(pre > 0, pre, torch.zeros_like(pre))  # relu (no fp16 relu on 1.13 CPUs)
    o = (torch.matmul(h.float(), w2.float().t()) + b2.float()).to(dtype)
    diff = (o.float() - y_local.float()).to(dtype)
    d_o = (diff.float() * (2.0 / (chunk * d_out))).to(dtype)
    g_w2 = gemm(d_o.t(), h)
    g_b2 = d_o.float().sum(dim=0).to(dtype)
    d_h = gemm(d_o, w2)
    d_pre = torch.where(pre > 0, d_h, torch.zeros_like(d_h))
    g_w1 = gemm(d_pre.t(), x)
    g_b1 = d_pre.float().sum(dim=0).to(dtype)

    flat_grad = torch.cat([g_w1.reshape(-1), g_b1, g_w2.reshape(-1), g_b2])
    g = torch.empty_like(flat_param_shard)
    dist.reduce_scatter_tensor(g, flat_grad, op=dist.ReduceOp.SUM)
    g = (g.float() / world).to(dtype).float()

    m = (exp_avg_shard.float() * beta1).to(dtype)
    m = (m.float() + (1 - beta1) * g).to(dtype)
    v = (exp_avg_sq_shard.float() * beta2).to(dtype)
    v = (v.float() + (1 - beta2) * g * g).to(dtype)
    # Divide by tensors: a GPU divides by a Python scalar as a multiply by its reciprocal.
    correction1 = torch.full((), 1 - beta1 ** step, dtype=torch.float32, device=g.device)
    correction2 = torch.full((), 1 - beta2 ** step, dtype=torch.float32, device=g.device)
    m_hat = (m.float() / correction1).to(dtype)
    v_hat = (v.float() / correction2).to(dtype)
    denom = torch.sqrt(v_hat.float()).to(dtype)
    denom = (denom.float() + eps).to(dtype)
    ratio = (m_hat.float() / denom.float()).to(dtype)
    theta0 = flat_param_shard.float()
    theta = (theta0 + (-lr) * ratio.float()).to(dtype)
    theta = (theta.float() + (-lr * weight_decay) * theta0).to(dtype)
    return theta, m, v
