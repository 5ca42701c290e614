// Distributed 2-hop neighbour sampling. Node v lives on rank v mod W in local slot v / W. Per hop
// with fanout k: frontier nodes go to their owners (counts, then ids), each owner takes the first
// min(k, deg v) neighbours and edge ids of its local CSC, and the replies come back (totals,
// neighbours, edge ids, per-node counts) and are put in frontier order. New nodes (first
// occurrence, against every node found so far) are appended to `nodes` and form the next frontier;
// row/col are positions in `nodes`. Shapes: problems/064_gnn_neighbor_sampling/problem.json.
#include "reference/gnn.h"
#include "reference/registry.h"

namespace pkb::ref::p064 {
namespace {

// Upstream hands every rank the same fixed ring graph, so sampling needs no communication and all
// trials agree. Here each rank holds only the adjacency of its own nodes, with random degrees in
// [0, D] and random neighbours per rank and trial: skipping an exchange loses every remote
// frontier node's samples, and a stale trial samples another graph.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t world = ctx.world(), rank = ctx.rank();
  const std::int64_t nodes = ctx.dim("V"), max_degree = ctx.dim("D"), seeds = ctx.dim("S");
  const std::int64_t local = nodes / world;
  const at::Tensor degree = at::randint(0, max_degree + 1, {local}, ctx.generator(), at::kLong);
  const std::int64_t edges = degree.sum().item<std::int64_t>();
  at::Tensor colptr = at::zeros({local + 1}, at::kLong);
  colptr.narrow(0, 1, local).copy_(degree.cumsum(0));
  at::Tensor row = at::full({local * max_degree}, -1, at::kLong);
  row.narrow(0, 0, edges).copy_(at::randint(0, nodes, {edges}, ctx.generator(), at::kLong));
  // Global edge id of neighbour j of node v: D*v + j (upstream's colptr[v] + j for degree D).
  const at::Tensor v = at::arange(local, at::kLong).mul(world).add(rank).repeat_interleave(degree);
  const at::Tensor j =
      at::arange(edges, at::kLong) - colptr.narrow(0, 0, local).repeat_interleave(degree);
  at::Tensor edge_ids = at::full({local * max_degree}, -1, at::kLong);
  edge_ids.narrow(0, 0, edges).copy_(v * max_degree + j);
  const at::Tensor seed_nodes = (at::arange(seeds, at::kLong) + rank * seeds).remainder(nodes);
  const at::Tensor fanouts = at::tensor({ctx.dim("F1"), ctx.dim("F2")}, at::kLong);
  return {{"seed_nodes", ctx.to_device(seed_nodes)},
          {"fanouts", ctx.to_device(fanouts)},
          {"local_colptr", ctx.to_device(colptr)},
          {"local_row", ctx.to_device(row)},
          {"local_edge_ids", ctx.to_device(edge_ids)}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const std::int64_t world = comm.size();
  const at::Tensor& colptr = in.at("local_colptr");
  const at::Tensor& seeds = in.at("seed_nodes");
  const at::TensorOptions longs = seeds.options();
  const std::int64_t total_nodes = (colptr.size(0) - 1) * world;

  std::vector<std::int64_t> nodes = gnn::host_list(seeds), position(total_nodes, -1);
  for (std::size_t i = 0; i < nodes.size(); ++i) position[nodes[i]] = static_cast<std::int64_t>(i);
  at::Tensor frontier = seeds;
  std::vector<at::Tensor> out_nodes, out_dsts, out_edges;
  // Every hop runs on every rank, even with an empty frontier, so the collectives always match.
  for (std::int64_t fanout : gnn::host_list(in.at("fanouts"))) {
    const auto [order, sends, recvs] = gnn::route_by_owner(comm, frontier.remainder(world));
    const at::Tensor requested = gnn::exchange(comm, frontier.index_select(0, order), sends, recvs);

    // The owner's side: the first min(k, deg v) neighbours of each requested node.
    const at::Tensor slot = requested.div(world, "floor");
    const at::Tensor start = colptr.index_select(0, slot);
    const at::Tensor take = at::clamp_max(colptr.index_select(0, slot + 1) - start, fanout);
    const at::Tensor picked = gnn::expand_ranges(start, take);
    const at::Tensor source = at::arange(world, longs).repeat_interleave(at::tensor(recvs, longs));
    const at::Tensor totals = at::zeros({world}, longs).index_add_(0, source, take);
    const auto reply_sends = gnn::host_list(totals);
    const auto reply_recvs = gnn::host_list(gnn::exchange_counts(comm, totals));
    const at::Tensor neighbours =
        gnn::exchange(comm, in.at("local_row").index_select(0, picked), reply_sends, reply_recvs);
    const at::Tensor edges = gnn::exchange(comm, in.at("local_edge_ids").index_select(0, picked),
                                           reply_sends, reply_recvs);
    const at::Tensor sorted_counts = gnn::exchange(comm, take, recvs, sends);

    // Replies arrive in owner-sorted order; sorted position p is frontier entry order[p].
    const at::Tensor counts = at::empty_like(sorted_counts).index_copy_(0, order, sorted_counts);
    const at::Tensor offsets = at::empty_like(sorted_counts)
                                   .index_copy_(0, order, sorted_counts.cumsum(0) - sorted_counts);
    const at::Tensor back = gnn::expand_ranges(offsets, counts);
    const at::Tensor hop_nodes = neighbours.index_select(0, back);
    out_nodes.push_back(hop_nodes);
    out_dsts.push_back(frontier.repeat_interleave(counts));
    out_edges.push_back(edges.index_select(0, back));

    std::vector<std::int64_t> discovered;
    for (std::int64_t node : gnn::host_list(hop_nodes)) {
      if (position[node] >= 0) continue;
      position[node] = static_cast<std::int64_t>(nodes.size());
      nodes.push_back(node);
      discovered.push_back(node);
    }
    frontier = at::tensor(discovered, longs);
  }

  // Capacities: every sample new, S * (f1 + f1*f2) edges and S more nodes.
  std::int64_t reach = seeds.size(0), edge_capacity = 0;
  for (std::int64_t fanout : gnn::host_list(in.at("fanouts"))) edge_capacity += reach *= fanout;
  const at::Tensor pos = at::tensor(position, longs);
  const auto padded = [&](const at::Tensor& values, std::int64_t capacity) {
    at::Tensor out = at::full({capacity}, -1, longs);
    out.narrow(0, 0, values.size(0)).copy_(values);
    return out;
  };
  const std::int64_t edge_count = at::cat(out_edges).size(0);
  return {{"nodes", padded(at::tensor(nodes, longs), seeds.size(0) + edge_capacity)},
          {"row", padded(pos.index_select(0, at::cat(out_nodes)), edge_capacity)},
          {"col", padded(pos.index_select(0, at::cat(out_dsts)), edge_capacity)},
          {"edge", padded(at::cat(out_edges), edge_capacity)},
          {"node_count", at::scalar_tensor(static_cast<std::int64_t>(nodes.size()), longs)},
          {"edge_count", at::scalar_tensor(edge_count, longs)}};
}

}  // namespace

PKB_REGISTER_REFERENCE("064_gnn_neighbor_sampling", make_inputs, solve);

}  // namespace pkb::ref::p064
