# pkb problem 028_moe_pre_all2all: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def solution(hidden: torch.Tensor, mask: torch.Tensor, in_splits: torch.Tensor,
             out_splits: torch.Tensor, tab: torch.Tensor):
    """MoE dispatch before the expert computation, on W ranks with L = E // W experts each.

    hidden: (M, N); mask: (E, 2, M) fp32 0/1, mask[e, k, t] = 1 if token t chose expert e in slot
    k; in_splits, out_splits: (W,) int64; tab: (W, L) int64.
      routing = mask.sum(1)                                        (E, M) fp32
      perm    = the t with routing[e, t] != 0, e ascending, then t ascending; its length nnz
      permuted = hidden[perm]                                      (nnz, N); nnz must equal
                                                                   sum(in_splits)
      recv    = all-to-all of permuted: in_splits[d] consecutive rows go to rank d, out_splits[s]
                rows come from rank s, in source order             (sum(out_splits), N)
      global_permuted = recv cut into W*L chunks, chunk s*L + l having tab[s, l] rows, put in the
                order l = 0..L-1, then s = 0..W-1                  (sum(out_splits), N)
    perm is returned in a buffer of E*M entries (the most a routing map can have), -1 after its
    first nnz entries. Returns (global_permuted, routing, perm, perm_count) with perm_count = nnz
    as a 0-d int64 tensor.
    """
    num_experts, num_tokens = mask.shape[0], mask.shape[2]
    world = dist.get_world_size()
    local = tab.shape[1]

    routing = mask.sum(dim=1)
    perm = routing.nonzero()[:, 1]  # nonzero is row-major: expert-major, tokens ascending
    routed = perm.numel()
    if routed != int(in_splits.sum()):
        raise ValueError(f"in_splits sum to {int(in_splits.sum())}, but {routed} rows are routed")

    permuted = hidden.index_select(0, perm)
    receive = out_splits.tolist()
    received = hidden.new_empty((sum(receive), hidden.shape[1]))
    dist.all_to_all_single(received, permuted, output_split_sizes=receive,
                           input_split_sizes=in_splits.tolist())

    chunks = torch.split(received, tab.reshape(-1).tolist())  # chunk s*L + l
    global_permuted = torch.cat([chunks[s * local + l] for l in range(local) for s in range(world)])

    padded = torch.full((num_experts * num_tokens,), -1, dtype=torch.int64, device=perm.device)
    padded[:routed] = perm
    perm_count = torch.tensor(routed, dtype=torch.int64, device=perm.device)
    return global_permuted, routing, padded, perm_count
