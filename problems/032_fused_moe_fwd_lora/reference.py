# pkb problem 032_fused_moe_fwd_lora: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist
import torch.nn.functional as F


def linear(x, weight, bias):
    """x @ weight.T + bias, accumulated in fp32 and rounded once to x's precision."""
    return (torch.matmul(x.float(), weight.float().t()) + bias.float()).to(x.dtype)


def matmul_p(a, b):
    """a @ b accumulated in fp32 and rounded once to a's precision."""
    return torch.matmul(a.float(), b.float()).to(a.dtype)


def lora(x, a, b):
    """The low-rank update (x @ a.T) @ b.T, rounded to P after each product."""
    return matmul_p(matmul_p(x, a.t()), b.t())


def solution(hidden_states, gate_weight, gate_bias, gate_proj_weight, gate_proj_bias,
             up_proj_weight, up_proj_bias, down_proj_weight, down_proj_bias,
             lora_gate_A, lora_gate_B, lora_up_A, lora_up_B, lora_down_A, lora_down_B,
             num_experts: int, top_k: int):
    """Expert-parallel mixture-of-experts forward with LoRA experts (top-k routing, two
    all-to-alls).

    hidden_states: [M, N]; gate_weight: [E, N], gate_bias: [E] (this rank's router);
    gate_proj/up_proj: weight [I, N], bias [I]; down_proj: weight [N, I], bias [N] (this rank's
    expert MLP); LoRA factors (rank R, this rank's): lora_gate_A, lora_up_A: [R, N],
    lora_gate_B, lora_up_B: [I, R], lora_down_A: [R, I], lora_down_B: [N, R]. All in the run
    precision P. E = num_experts; W divides E and rank j owns experts
    j*L .. j*L+L-1 (L = E/W), all of which use rank j's MLP weights.

    1. Router in P: logits = x @ gate_weight.T + gate_bias; probs = softmax in fp32, rounded to
       P; top_k of probs per token gives experts e_t1, e_t2 and weights w_t1, w_t2 (not
       renormalised).
    2. Token counts per expert are all-gathered so every rank knows how many rows it receives.
    3. Token rows are sorted expert-major (then by token) and sent to their experts' owners.
    4. Each owner applies its LoRA MLP, rounding to P after every linear, product and sum (silu
       in fp32, rounded to P):
           g = gate(x) + lora(x, lora_gate_A, lora_gate_B)
           u = up(x) + lora(x, lora_up_A, lora_up_B)
           y = silu(g) * u
           result = down(y) + lora(y, lora_down_A, lora_down_B)
    5. A second all-to-all returns the rows; out[t] = sum over t's experts of w * MLP_owner(x_t)
       (each product rounded to P, accumulated in P).
    The LoRA factors are the owner rank's, like the base weights; there is no LoRA scaling.
    Returns out: [M, N].
    """
    world = dist.get_world_size()
    rank = dist.get_rank()
    tokens, width = hidden_states.shape
    experts_per_rank = num_experts // world

    logits = linear(hidden_states, gate_weight, gate_bias)
    probs = torch.softmax(logits.float(), dim=-1).to(logits.dtype)
    weights, experts = torch.topk(probs, top_k, dim=-1)

    # How many rows go to each rank, and how many come from each rank.
    counts = torch.bincount(experts.reshape(-1), minlength=num_experts)
    all_counts = torch.empty((world, num_experts), dtype=counts.dtype, device=counts.device)
    dist.all_gather_into_tensor(all_counts, counts)
    send_splits = counts.view(world, experts_per_rank).sum(dim=1).tolist()
    mine = slice(rank * experts_per_rank, (rank + 1) * experts_per_rank)
    recv_splits = all_counts[:, mine].sum(dim=1).tolist()

    # (token, expert) pairs in expert-major, token-minor order: blocks for rank 0, 1, ...
    pair_expert = experts.reshape(-1)
    pair_token = torch.arange(tokens, device=hidden_states.device).repeat_interleave(top_k)
    order = torch.argsort(pair_expert * tokens + pair_token)
    pair_token = pair_token[order]
    pair_weight = weights.reshape(-1)[order]
    send_rows = hidden_states[pair_token].contiguous()

    recv_rows = torch.empty((sum(recv_splits), width), dtype=hidden_states.dtype,
                            device=hidden_states.device)
    dist.all_to_all_single(recv_rows, send_rows, recv_splits, send_splits)

    # All of this rank's experts share its MLP weights, so the rows need no regrouping.
    gate = (linear(recv_rows, gate_proj_weight, gate_proj_bias)
            + lora(recv_rows, lora_gate_A, lora_gate_B))
    up = linear(recv_rows, up_proj_weight, up_proj_bias) + lora(recv_rows, lora_up_A, lora_up_B)
    act = F.silu(gate.float()).to(gate.dtype) * up
    expert_out = (linear(act, down_proj_weight, down_proj_bias)
                  + lora(act, lora_down_A, lora_down_B))

    returned = torch.empty_like(send_rows)
    dist.all_to_all_single(returned, expert_out.contiguous(), send_splits, recv_splits)
    out = torch.zeros_like(hidden_states)
    out.index_add_(0, pair_token, returned * pair_weight.unsqueeze(1))
    return out
