# pkb problem 075_fla_gated_deltanet_cp: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist
import torch.nn.functional as F


def delta_rule_recurrence(q, k, v, decay, beta):
    """Gated delta rule, one state S [Dk, Dv] per (batch, head), S_0 = 0. For each token t:
    S <- decay_t S; e = v_t - k_t^T S; S <- S + k_t (beta_t e)^T; o_t = q_t^T S.
    q, k: [B, T, H, Dk]; v: [B, T, H, Dv]; decay, beta: [B, T, H]. Returns o [B, T, H, Dv]."""
    batch, steps, heads, key_dim = k.shape
    state = torch.zeros(batch, heads, key_dim, v.shape[-1], dtype=q.dtype, device=q.device)
    outputs = []
    for t in range(steps):
        k_t = k[:, t]
        state = state * decay[:, t].unsqueeze(-1).unsqueeze(-1)
        error = v[:, t] - torch.matmul(k_t.unsqueeze(-2), state).squeeze(-2)
        state = state + k_t.unsqueeze(-1) * (beta[:, t].unsqueeze(-1) * error).unsqueeze(-2)
        outputs.append(torch.matmul(q[:, t].unsqueeze(-2), state).squeeze(-2))
    return torch.stack(outputs, dim=1)


def solution(q, k, v, gate, beta, a, dt_bias):
    """Gated DeltaNet with Ulysses context parallelism.

    Rank r holds tokens [r*Tl, (r+1)*Tl) of a sequence of T = W*Tl tokens, for all H heads:
    q, k: [Bt, Tl, H, Dk], v: [Bt, Tl, H, Dv], gate: [Bt, Tl, H], beta: [Bt, Tl, H] (already a
    probability) in the run precision. a, dt_bias: [H/W] in bf16, the constants of the head block
    [r*H/W, (r+1)*H/W) that rank r owns after the exchange.
    1. For each of q, k, v, gate, beta: all-to-all (head block d of my tokens goes to rank d),
       received token blocks concatenated in source order: [Bt, T, H/W, .].
    2. In fp32: decay = exp(-exp(a) * softplus(gate + dt_bias)), q^ = q / max(|q|, 1e-6) * Dk^-1/2,
       k^ = k / max(|k|, 1e-6); o = delta-rule recurrence, rounded to the run precision.
    3. All-to-all back (token block d goes to rank d), received head blocks concatenated in
       source order. Returns o: [Bt, Tl, H, Dv].
    """
    world = dist.get_world_size()
    key_dim = q.shape[-1]

    def to_heads(x):
        send = torch.stack(torch.chunk(x, world, dim=2)).contiguous()
        received = torch.empty_like(send)
        dist.all_to_all_single(received, send)
        return torch.cat(received.unbind(0), dim=1)

    q_all = to_heads(q).float()
    k_all = to_heads(k).float()
    v_all = to_heads(v).float()
    gate_all = to_heads(gate).float()
    beta_all = to_heads(beta).float()

    decay = torch.exp(-torch.exp(a.float()) * F.softplus(gate_all + dt_bias.float(), beta=1, threshold=20))
    q_hat = F.normalize(q_all, p=2.0, dim=-1, eps=1e-6) * (1.0 / key_dim ** 0.5)
    k_hat = F.normalize(k_all, p=2.0, dim=-1, eps=1e-6)
    o = delta_rule_recurrence(q_hat, k_hat, v_all, decay, beta_all).to(q.dtype)

    send = torch.stack(torch.chunk(o, world, dim=1)).contiguous()
    received = torch.empty_like(send)
    dist.all_to_all_single(received, send)
    return torch.cat(received.unbind(0), dim=2).contiguous()
