// plan_collective_moves (see collective_moves.h). Per kind, with b = count x element size:
//   all_reduce      reduce every send into rank 0's recv, then copy it to the other recvs
//   reduce          reduce every send into the root's recv
//   reduce_scatter  recv of rank r = reduce of chunk r of every send
//   all_gather      chunk q of every recv = send of rank q
//   broadcast       every recv = the root's send
//   all_to_all      chunk q of rank r's recv = chunk r of rank q's send
//   send / recv     the k-th send from r to p fills the k-th recv on p from r
// A call that names a group does all this over its instance's ranks, in group-rank order (rank,
// root, peer and chunk q are ranks of the group), and instances of one step are independent.
// A reduction reads and writes each element at the same index once, which is what makes NCCL's
// in-place forms (recv = send, or recv = send + r*b for reduce_scatter) safe here too.
#include "harness/device/collective_moves.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "harness/plan/plan.h"

namespace pkb::harness {
namespace {

using plan::CollectiveKind;

[[noreturn]] void refuse(const std::string& why) {
  throw plan::PlanError("collective (emulated ranks): " + why);
}

bool can_reduce(DType dtype) {
  switch (dtype) {
    case DType::bf16: case DType::fp16: case DType::fp32: case DType::fp64:
    case DType::int8: case DType::uint8: case DType::int32: case DType::int64:
      return true;
    default:
      return false;
  }
}

CollectiveMove copy_move(DevAddr dst, DevAddr src, std::uint64_t count, DType dtype) {
  CollectiveMove move;
  move.kind = CollectiveMove::Kind::copy;
  move.dst = dst;
  move.srcs = {src};
  move.count = count;
  move.dtype = dtype;
  return move;
}

CollectiveMove reduce_move(DevAddr dst, std::vector<DevAddr> srcs, const CollectiveCall& call) {
  if (!can_reduce(call.dtype))
    refuse("cannot reduce " + std::string(dtype_name(call.dtype)) +
           " (bf16, fp16, fp32, fp64 and 8, 32 or 64-bit integers only)");
  CollectiveMove move;
  move.kind = CollectiveMove::Kind::reduce;
  move.dst = dst;
  move.srcs = std::move(srcs);
  move.count = call.count;
  move.dtype = call.dtype;
  move.op = call.reduce;
  return move;
}

// One collective step on one communicator: a call from each of its `world` ranks (by_rank[i] is
// its rank i's, a group rank where the step names a group), of one kind, count and root.
void plan_collective(const std::vector<const CollectiveCall*>& by_rank, int world,
                     std::vector<CollectiveMove>& moves) {
  const CollectiveCall& first = *by_rank[0];
  const std::uint64_t count = first.count;
  const std::uint64_t bytes = count * dtype_size(first.dtype);
  const int root = first.root;
  auto sends = [&](std::uint64_t offset) {
    std::vector<DevAddr> out;
    for (int rank = 0; rank < world; ++rank) out.push_back(by_rank[rank]->send + offset);
    return out;
  };
  auto copy = [&](DevAddr dst, DevAddr src) {
    if (dst != src) moves.push_back(copy_move(dst, src, count, first.dtype));
  };
  switch (first.kind) {
    case CollectiveKind::all_reduce:
      moves.push_back(reduce_move(by_rank[0]->recv, sends(0), first));
      for (int rank = 1; rank < world; ++rank) copy(by_rank[rank]->recv, by_rank[0]->recv);
      break;
    case CollectiveKind::reduce:
      moves.push_back(reduce_move(by_rank[root]->recv, sends(0), first));
      break;
    case CollectiveKind::reduce_scatter:
      for (int rank = 0; rank < world; ++rank)
        moves.push_back(reduce_move(by_rank[rank]->recv, sends(rank * bytes), first));
      break;
    case CollectiveKind::all_gather:
      for (int rank = 0; rank < world; ++rank)
        for (int from = 0; from < world; ++from)
          copy(by_rank[rank]->recv + from * bytes, by_rank[from]->send);
      break;
    case CollectiveKind::broadcast:
      for (int rank = 0; rank < world; ++rank) copy(by_rank[rank]->recv, by_rank[root]->send);
      break;
    case CollectiveKind::all_to_all:
      for (int rank = 0; rank < world; ++rank) {
        const DevAddr recv = by_rank[rank]->recv, send = by_rank[rank]->send;
        if (recv < send + world * bytes && send < recv + world * bytes)
          refuse("all_to_all on rank " + std::to_string(rank) +
                 ": recv overlaps send (in place is not supported)");
      }
      for (int rank = 0; rank < world; ++rank)
        for (int from = 0; from < world; ++from)
          copy(by_rank[rank]->recv + from * bytes, by_rank[from]->send + rank * bytes);
      break;
    case CollectiveKind::send:
    case CollectiveKind::recv:
      break;  // point to point: plan_point_to_point
  }
}

// The world ranks a call spans, in its ranks' order: its group's instance, or all W ranks.
std::vector<int> span_of(const CollectiveCall& call, int world) {
  if (!call.members.empty()) return call.members;
  std::vector<int> all(static_cast<std::size_t>(world));
  for (int rank = 0; rank < world; ++rank) all[static_cast<std::size_t>(rank)] = rank;
  return all;
}

// The send and recv calls of `group` (the others are plan_collective's). A send meets a recv only
// on one communicator (the world's, or one instance of one group); peers are ranks of it.
void plan_point_to_point(const std::vector<IssuedCollective>& group, int world,
                         std::vector<CollectiveMove>& moves) {
  // (group, from, to) in world ranks -> the sends and recvs between them, in issue order.
  using Link = std::tuple<int, int, int>;
  std::map<Link, std::vector<const CollectiveCall*>> sends, recvs;
  auto peer_of = [&](const CollectiveCall& call) {
    const std::vector<int> span = span_of(call, world);
    if (call.peer < 0 || call.peer >= static_cast<int>(span.size()))
      refuse("peer " + std::to_string(call.peer) + " is outside a group of " +
             std::to_string(span.size()));
    return span[static_cast<std::size_t>(call.peer)];
  };
  for (const auto& issued : group) {
    if (issued.call.kind == CollectiveKind::send)
      sends[{issued.call.group, issued.rank, peer_of(issued.call)}].push_back(&issued.call);
    else if (issued.call.kind == CollectiveKind::recv)
      recvs[{issued.call.group, peer_of(issued.call), issued.rank}].push_back(&issued.call);
  }
  for (const auto& [link, list] : recvs)
    if (list.size() > (sends.count(link) ? sends.at(link).size() : 0))
      refuse("rank " + std::to_string(std::get<2>(link)) + " receives from rank " +
             std::to_string(std::get<1>(link)) + " more often than it sends");
  for (const auto& [link, list] : sends) {
    const auto found = recvs.find(link);
    const int from = std::get<1>(link), to = std::get<2>(link);
    for (std::size_t k = 0; k < list.size(); ++k) {
      if (found == recvs.end() || k >= found->second.size())
        refuse("a send from rank " + std::to_string(from) + " to rank " + std::to_string(to) +
               " has no matching recv");
      const CollectiveCall& send = *list[k];
      const CollectiveCall& recv = *found->second[k];
      if (send.count * dtype_size(send.dtype) != recv.count * dtype_size(recv.dtype))
        refuse("rank " + std::to_string(from) + " sends " + std::to_string(send.count) +
               " elements to rank " + std::to_string(to) + ", which receives " +
               std::to_string(recv.count));
      moves.push_back(copy_move(recv.recv, send.send, send.count, send.dtype));
    }
  }
}

}  // namespace

std::vector<CollectiveMove> plan_collective_moves(const std::vector<IssuedCollective>& group,
                                                  int world) {
  std::vector<CollectiveMove> moves;
  // The calls that are not send / recv, per communicator they span (its ranks in order), then
  // per world rank: one collective step is one call per rank of each instance.
  std::map<std::vector<int>, std::map<int, std::vector<const CollectiveCall*>>> by_span;
  for (const auto& issued : group) {
    if (issued.call.kind == CollectiveKind::send || issued.call.kind == CollectiveKind::recv)
      continue;
    const std::vector<int> span = span_of(issued.call, world);
    if (std::find(span.begin(), span.end(), issued.rank) == span.end())
      refuse("rank " + std::to_string(issued.rank) +
             " issued a collective over a group it is not in");
    by_span[span][issued.rank].push_back(&issued.call);
  }
  for (const auto& [span, by_rank] : by_span) {
    std::vector<const CollectiveCall*> calls;  // in the span's rank order
    for (int rank : span) {
      const auto found = by_rank.find(rank);
      if (found == by_rank.end() || found->second.size() != 1)
        refuse("rank " + std::to_string(rank) + " issued " +
               std::to_string(found == by_rank.end() ? 0 : found->second.size()) +
               " calls of this collective, every rank must issue one");
      calls.push_back(found->second[0]);
    }
    for (const CollectiveCall* call : calls)
      if (call->kind != calls[0]->kind || call->count != calls[0]->count ||
          call->root != calls[0]->root || call->dtype != calls[0]->dtype)
        refuse("the ranks issued collectives of different kinds, counts, types or roots");
    const int ranks = static_cast<int>(span.size());
    const int root = calls[0]->root;
    const bool rooted =
        calls[0]->kind == CollectiveKind::broadcast || calls[0]->kind == CollectiveKind::reduce;
    if (rooted && (root < 0 || root >= ranks))
      refuse("root " + std::to_string(root) + " is outside a group of " + std::to_string(ranks));
    plan_collective(calls, ranks, moves);
  }
  plan_point_to_point(group, world, moves);
  return moves;
}

std::vector<std::vector<IssuedCollective>> split_by_communicator(
    const std::vector<IssuedCollective>& group) {
  std::vector<std::vector<IssuedCollective>> parts;
  std::vector<IssuedCollective> point_to_point;
  std::map<std::pair<int, std::vector<int>>, std::size_t> part_of;  // (group, members) -> part
  for (const auto& issued : group) {
    const CollectiveKind kind = issued.call.kind;
    if (kind == CollectiveKind::send || kind == CollectiveKind::recv) {
      point_to_point.push_back(issued);
      continue;
    }
    const auto key = std::make_pair(issued.call.group, issued.call.members);
    const auto found = part_of.find(key);
    if (found != part_of.end()) {
      parts[found->second].push_back(issued);
      continue;
    }
    part_of[key] = parts.size();
    parts.push_back({issued});
  }
  if (!point_to_point.empty()) parts.push_back(std::move(point_to_point));
  return parts;
}

}  // namespace pkb::harness
