# pkb problem 074_fla_kimi_delta_attention_cp_tp: the PyTorch reference (shapes and dtypes:
# problem.json).
import torch
import torch.distributed as dist
import torch.nn.functional as F


def delta_rule_recurrence(q, k, v, decay, beta):
    """Gated delta rule, one state S [Dk, Dv] per (batch, head), S_0 = 0. For each token t:
    S <- diag(decay_t) S; e = v_t - k_t^T S; S <- S + k_t (beta_t e)^T; o_t = q_t^T S.
    q, k, decay: [B, T, H, Dk]; v: [B, T, H, Dv]; beta: [B, T, H]. Returns o [B, T, H, Dv]."""
    batch, steps, heads, key_dim = k.shape
    state = torch.zeros(batch, heads, key_dim, v.shape[-1], dtype=q.dtype, device=q.device)
    outputs = []
    for t in range(steps):
        k_t = k[:, t]
        state = state * decay[:, t].unsqueeze(-1)
        error = v[:, t] - torch.matmul(k_t.unsqueeze(-2), state).squeeze(-2)
        state = state + k_t.unsqueeze(-1) * (beta[:, t].unsqueeze(-1) * error).unsqueeze(-2)
        outputs.append(torch.matmul(q[:, t].unsqueeze(-2), state).squeeze(-2))
    return torch.stack(outputs, dim=1)


def solution(q, k, v, g, beta, a_log, dt_bias, lower_bound: float, groups: dict):
    """Kimi delta attention (KDA) with context parallelism (CP) and a tensor-parallel (TP) sum.

    groups["cp"]: the ranks sharing one sequence, CP rank c holding tokens [c*Tl, (c+1)*Tl);
    groups["tp"]: the TP pairs {2i, 2i+1} (a single rank when there is no TP).
    q, k, g: [Bt, Tl, H, Dk], v: [Bt, Tl, H, Dv], beta: [Bt, Tl, H] in the run precision;
    a_log: [H] and dt_bias: [H*Dk] in bf16.
    1. All-gather q, k, v, g, beta along the sequence over the CP group (T = cp * Tl tokens).
    2. In fp32: decay = exp(lower_bound * sigmoid(exp(a_log[h]) * (g + dt_bias[h*Dk + d]))),
       beta = sigmoid(beta), q^ = q / max(|q|, 1e-12) * Dk^-1/2, k^ = k / max(|k|, 1e-12);
       o = delta-rule recurrence over all T tokens, rounded to the run precision.
    3. Keep this rank's tokens o[:, c*Tl : (c+1)*Tl] and sum them over the TP group (in P).
    Returns o: [Bt, Tl, H, Dv].
    """
    cp_group, tp_group = groups["cp"], groups["tp"]
    cp_size, cp_rank = dist.get_world_size(cp_group), dist.get_rank(cp_group)
    batch, tokens, heads, key_dim = q.shape

    def gather_sequence(x):
        if cp_size == 1:
            return x
        parts = [torch.empty_like(x) for _ in range(cp_size)]
        dist.all_gather(parts, x.contiguous(), group=cp_group)
        return torch.cat(parts, dim=1)

    q_all = gather_sequence(q).float()
    k_all = gather_sequence(k).float()
    v_all = gather_sequence(v).float()
    g_all = gather_sequence(g).float()
    beta_all = torch.sigmoid(gather_sequence(beta).float())

    rate = torch.exp(a_log.float()).view(heads, 1)
    bias = dt_bias.float().view(heads, key_dim)
    decay = torch.exp(lower_bound * torch.sigmoid(rate * (g_all + bias)))
    q_hat = F.normalize(q_all, p=2.0, dim=-1, eps=1e-12) * (1.0 / key_dim ** 0.5)
    k_hat = F.normalize(k_all, p=2.0, dim=-1, eps=1e-12)
    o = delta_rule_recurrence(q_hat, k_hat, v_all, decay, beta_all).to(q.dtype)

    out = o[:, cp_rank * tokens:(cp_rank + 1) * tokens].contiguous()
    if dist.get_world_size(tp_group) > 1:
        dist.all_reduce(out, op=dist.ReduceOp.SUM, group=tp_group)
    return out
