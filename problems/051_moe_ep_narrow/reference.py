# pkb problem 051_moe_ep_narrow: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist
import torch.nn.functional as F


def linear(x, weight, bias):
    """x @ weight^T + bias with fp32 accumulation and one rounding to x's dtype."""
    return torch.addmm(bias.float(), x.float(), weight.float().t()).to(x.dtype)


def expert_mlp(x, gate_proj_weight, gate_proj_bias, up_proj_weight, up_proj_bias,
               down_proj_weight, down_proj_bias):
    """down(P(P(silu(gate(x))) * up(x))), every step rounded to x's dtype P."""
    act = F.silu(linear(x, gate_proj_weight, gate_proj_bias).float()).to(x.dtype)
    up = linear(x, up_proj_weight, up_proj_bias)
    return linear((act.float() * up.float()).to(x.dtype), down_proj_weight, down_proj_bias)


def moe_forward(hidden_states, gate_weight, gate_bias, mlp_weights, top_k, group=None):
    """Expert-parallel MoE over `group`: expert e lives on group rank e // (E / group size)."""
    dtype = hidden_states.dtype
    tokens, hidden = hidden_states.shape
    world = dist.get_world_size(group)
    rank = dist.get_rank(group)
    num_experts = gate_weight.shape[0]
    local = num_experts // world
    k = min(top_k, num_experts)

    # Router: softmax in fp32 rounded to P; top-k by a stable descending sort (ties go to the
    # lower expert index); the weights are the raw probabilities, not renormalised.
    probs = torch.softmax(linear(hidden_states, gate_weight, gate_bias).float(), dim=-1).to(dtype)
    sorted_probs, order = torch.sort(probs.float(), dim=-1, descending=True, stable=True)
    weights = sorted_probs[:, :k].to(dtype).reshape(-1)  # pair t * k + j
    experts = order[:, :k].reshape(-1)

    counts = torch.bincount(experts, minlength=num_experts)
    all_counts = torch.empty(world * num_experts, dtype=counts.dtype, device=counts.device)
    dist.all_gather_into_tensor(all_counts, counts, group=group)
    send = counts.view(world, local).sum(1).tolist()
    recv = all_counts.view(world, world, local)[:, rank].sum(1).tolist()

    # Pairs expert-major, tokens ascending: the rows for each rank form one block, in rank order.
    perm = torch.sort(experts, stable=True).indices
    rows = hidden_states[torch.div(perm, k, rounding_mode="floor")]
    received = hidden_states.new_empty((sum(recv), hidden))
    dist.all_to_all_single(received, rows, recv, send, group=group)
    # All local experts share this rank's MLP, which acts row by row, so regrouping the
    # received rows by local expert (and back) would change nothing.
    y = expert_mlp(received, *mlp_weights)
    returned = torch.empty_like(rows)
    dist.all_to_all_single(returned, y, send, recv, group=group)

    contrib = (returned.float() * weights[perm].float().unsqueeze(1)).to(dtype)
    per_pair = torch.empty_like(contrib)
    per_pair[perm] = contrib
    return per_pair.view(tokens, k, hidden).float().sum(1).to(dtype)


def solution(hidden_states, gate_weight, gate_bias, gate_proj_weight, gate_proj_bias,
             up_proj_weight, up_proj_bias, down_proj_weight, down_proj_bias, top_k: int,
             groups: dict):
    """Expert-parallel mixture-of-experts forward.

    hidden_states: [M, N]; gate_weight: [E, N], gate_bias: [E] (this rank's router);
    gate_proj / up_proj: [I, N] weights and [I] biases, down_proj: [N, I] and [N] (this rank's
    expert MLP). All in the run's precision P.
    E = W/2 experts (1 at W = 2; gate_weight [E, N]) inside EP groups of E consecutive ranks
    (groups["ep"]); expert e lives on group rank e; top_k is min(2, E).
    Each token picks the top_k experts of P(softmax(P(x gate_weight^T + gate_bias))) with weights
    w (not renormalised); its row goes to each expert's rank, through that rank's MLP
    y = down(P(P(silu(gate(x))) * up(x))) and back, and
        out[t] = P(sum over t's experts e of P(w_e * MLP_owner(e)(x_t)))
    Returns out [M, N] in P.
    """
    mlp_weights = (gate_proj_weight, gate_proj_bias, up_proj_weight, up_proj_bias,
                   down_proj_weight, down_proj_bias)
    return moe_forward(hidden_states, gate_weight, gate_bias, mlp_weights, top_k,
                       group=groups["ep"])
