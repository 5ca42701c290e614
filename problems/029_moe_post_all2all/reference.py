# pkb problem 029_moe_post_all2all: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(expert_out: torch.Tensor, weights: torch.Tensor, sel: torch.Tensor,
             in_splits: torch.Tensor, out_splits: torch.Tensor, tab: torch.Tensor,
             routing: torch.Tensor, perm: torch.Tensor) -> torch.Tensor:
    """MoE combine after the expert computation, on W ranks with L = E // W experts each.

    expert_out: (R, N) rows in local-expert-major order; weights: (M, 2) in P and sel: (M, 2)
    int64, weights[t, k] belonging to expert sel[t, k]; in_splits, out_splits: (W,) int64;
    tab: (W, L) int64; routing: (E, M) bool; perm: (R,) int64, the tokens t with routing[e, t]
    listed expert-major, token-ascending.
      1. Cut expert_out into W*L chunks, chunk l*W + s having tab[s, l] rows; put them in the
         order s = 0..W-1, then l = 0..L-1.
      2. All-to-all back: out_splits[s] consecutive rows go to rank s, in_splits[d] rows come
         from rank d, in source order: buf (sum(in_splits), N).
      3. dense (M, E) in P: dense[t, sel[t, k]] = weights[t, k]; tw = dense.T where routing,
         expert-major (aligned with perm).
      4. out (M, N) = zeros; out[perm[i]] += buf[i] * tw[i] (the product rounded to P).
    Returns out.
    """
    world, local = tab.shape
    num_tokens = routing.shape[1]

    chunks = torch.split(expert_out, tab.t().reshape(-1).tolist())  # chunk l*W + s
    by_source = torch.cat([chunks[l * world + s] for s in range(world) for l in range(local)])

    receive = in_splits.tolist()
    buf = expert_out.new_empty((sum(receive), expert_out.shape[1]))
    dist.all_to_all_single(buf, by_source, output_split_sizes=receive,
                           input_split_sizes=out_splits.tolist())

    dense = weights.new_zeros((num_tokens, routing.shape[0])).scatter_add_(1, sel, weights)
    token_weight = dense.t().masked_select(routing)  # expert-major, token-ascending, like perm
    contrib = buf * token_weight.unsqueeze(1)
    out = expert_out.new_zeros((num_tokens, expert_out.shape[1]))
    out.index_add_(0, perm, contrib)  # each token gets exactly two rows: order-independent
    return out
