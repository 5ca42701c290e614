# pkb problem 064_gnn_neighbor_sampling: the PyTorch reference (shapes and dtypes: problem.json).
import torch
import torch.distributed as dist


def exchange(values, sends, recvs):
    """Variable-split all_to_all_single: sends[d] entries go to rank d, recvs[s] come from s."""
    out = values.new_empty(sum(recvs))
    dist.all_to_all_single(out, values.contiguous(), output_split_sizes=recvs,
                           input_split_sizes=sends)
    return out


def exchange_counts(send_counts):
    """Per-destination counts (W,) in, what every rank sends to this one out."""
    recv_counts = torch.empty_like(send_counts)
    dist.all_to_all_single(recv_counts, send_counts)
    return recv_counts


def expand_ranges(starts, counts):
    """The positions starts[i] + [0, counts[i]), concatenated over i."""
    base = (torch.cumsum(counts, 0) - counts).repeat_interleave(counts)
    steps = torch.arange(base.numel(), device=counts.device)
    return starts.repeat_interleave(counts) + steps - base


def solution(seed_nodes, fanouts, local_colptr, local_row, local_edge_ids):
    """Two-hop neighbour sampling on a graph partitioned by node over W ranks.

    Node v is owned by rank v mod W, as local slot v // W; local_colptr (V/W + 1,) is a CSC over
    the local slots into local_row (neighbour ids) and local_edge_ids (global edge ids), both -1
    padded. seed_nodes (S,), fanouts (2,): all int64.
    nodes starts as the seeds, frontier = seeds. For each fanout k (every hop runs on every rank):
      1. frontier nodes are stably sorted by owner; counts, then ids, go to the owners
      2. an owner takes the first t = min(k, deg v) neighbours of each requested v, and their
         edge ids
      3. replies come back: per-destination totals, neighbour ids, edge ids, per-node counts t
      4. in frontier order: hop_nodes = the neighbour lists, hop_edges likewise,
         hop_dst = each frontier node repeated t times
      5. hop_nodes not yet in nodes are appended (first occurrence order); they are the new frontier
    row = position in nodes of every hop_node, col = of every hop_dst, edge = hop_edges (hops
    concatenated). Returns (nodes, row, col, edge, node_count, edge_count): nodes in a buffer of
    S*(1 + f1 + f1*f2) entries and row/col/edge in S*(f1 + f1*f2), padded with -1; the counts are
    0-d int64 tensors.
    """
    world = dist.get_world_size()
    device = seed_nodes.device
    total_nodes = (local_colptr.numel() - 1) * world
    nodes = seed_nodes.tolist()
    position = {node: i for i, node in enumerate(nodes)}
    frontier = seed_nodes
    out_nodes, out_dsts, out_edges = [], [], []
    for k in fanouts.tolist():
        owner = frontier % world
        order = torch.sort(owner, stable=True).indices
        send_counts = torch.bincount(owner, minlength=world)
        sends, recvs = send_counts.tolist(), exchange_counts(send_counts).tolist()
        requested = exchange(frontier[order], sends, recvs)

        # Owner side: the first min(k, deg v) neighbours of each requested node.
        slot = torch.div(requested, world, rounding_mode="floor")
        start = local_colptr[slot]
        take = torch.clamp(local_colptr[slot + 1] - start, max=k)
        picked = expand_ranges(start, take)
        source = torch.arange(world, device=device).repeat_interleave(
            torch.tensor(recvs, device=device))
        totals = torch.zeros(world, dtype=torch.int64, device=device).index_add_(0, source, take)
        reply_sends, reply_recvs = totals.tolist(), exchange_counts(totals).tolist()
        neighbours = exchange(local_row[picked], reply_sends, reply_recvs)
        edges = exchange(local_edge_ids[picked], reply_sends, reply_recvs)
        sorted_counts = exchange(take, recvs, sends)

        # Replies come in owner-sorted order: sorted position p is frontier entry order[p].
        counts = torch.empty_like(sorted_counts)
        counts[order] = sorted_counts
        offsets = torch.empty_like(sorted_counts)
        offsets[order] = torch.cumsum(sorted_counts, 0) - sorted_counts
        back = expand_ranges(offsets, counts)
        hop_nodes = neighbours[back]
        out_nodes.append(hop_nodes)
        out_dsts.append(frontier.repeat_interleave(counts))
        out_edges.append(edges[back])

        discovered = []
        for node in hop_nodes.tolist():
            if node not in position:
                position[node] = len(nodes)
                nodes.append(node)
                discovered.append(node)
        frontier = torch.tensor(discovered, dtype=torch.int64, device=device)

    edge_capacity, reach = 0, seed_nodes.numel()
    for k in fanouts.tolist():
        reach *= k
        edge_capacity += reach
    lookup = torch.full((total_nodes,), -1, dtype=torch.int64, device=device)
    lookup[torch.tensor(list(position.keys()), dtype=torch.int64, device=device)] = torch.tensor(
        list(position.values()), dtype=torch.int64, device=device)

    def padded(values, capacity):
        out = torch.full((capacity,), -1, dtype=torch.int64, device=device)
        out[:values.numel()] = values
        return out

    edge = torch.cat(out_edges)
    return (padded(torch.tensor(nodes, dtype=torch.int64, device=device),
                   seed_nodes.numel() + edge_capacity),
            padded(lookup[torch.cat(out_nodes)], edge_capacity),
            padded(lookup[torch.cat(out_dsts)], edge_capacity),
            padded(edge, edge_capacity),
            torch.tensor(len(nodes), dtype=torch.int64, device=device),
            torch.tensor(edge.numel(), dtype=torch.int64, device=device))
