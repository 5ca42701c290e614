// Exchange patterns shared by the GNN problems 064-069: split lists on the host, the
// rank-relative all-to-all of 065/066 (list position i is peer (r + i) mod W), routing items to
// owner ranks (owner sort, count exchange) and the variable-split all-to-all of 064 and 067-069.
// Header-only, so it needs no CMake entry.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include "reference/comm/comm.h"

namespace pkb::ref::gnn {

/// An int64 tensor's values on the host, as Comm::all_to_all takes split sizes.
inline std::vector<std::int64_t> host_list(const at::Tensor& values) {
  const at::Tensor cpu = values.to(at::kCPU).to(at::kLong).contiguous();
  return {cpu.data_ptr<std::int64_t>(), cpu.data_ptr<std::int64_t>() + cpu.numel()};
}

inline std::int64_t total(const std::vector<std::int64_t>& splits) {
  std::int64_t sum = 0;
  for (std::int64_t rows : splits) sum += rows;
  return sum;
}

/// All-to-all with variable splits along dim 0: sends[d] rows of `x` go to rank d, recvs[s] rows
/// come from rank s, concatenated in source order.
inline at::Tensor exchange(Comm& comm, const at::Tensor& x, const std::vector<std::int64_t>& sends,
                           const std::vector<std::int64_t>& recvs) {
  std::vector<std::int64_t> shape = x.sizes().vec();
  shape[0] = total(recvs);
  at::Tensor out = at::empty(shape, x.options());
  comm.all_to_all(out, x.contiguous(), recvs, sends);
  return out;
}

/// The per-destination counts (W,) int64 exchanged with equal splits: returns what each rank
/// sends to this one.
inline at::Tensor exchange_counts(Comm& comm, const at::Tensor& send_counts) {
  at::Tensor recv_counts = at::empty_like(send_counts);
  comm.all_to_all(recv_counts, send_counts.contiguous(), {}, {});
  return recv_counts;
}

/// Where this rank's items go when item i belongs to rank owner[i]: `order` is the stable sort of
/// the items by owner (the send order), sends[d] items go to rank d, recvs[s] come from rank s.
struct Routing {
  at::Tensor order;
  std::vector<std::int64_t> sends;
  std::vector<std::int64_t> recvs;
};

/// Sorts by owner and exchanges the per-owner counts (one all-to-all of W counts).
inline Routing route_by_owner(Comm& comm, const at::Tensor& owner) {
  Routing routing;
  routing.order = std::get<1>(owner.sort(/*stable=*/true, /*dim=*/0, /*descending=*/false));
  const at::Tensor send_counts = at::bincount(owner, {}, comm.size());
  routing.sends = host_list(send_counts);
  routing.recvs = host_list(exchange_counts(comm, send_counts));
  return routing;
}

/// The positions starts[i] + [0, counts[i]), concatenated over i.
inline at::Tensor expand_ranges(const at::Tensor& starts, const at::Tensor& counts) {
  const at::Tensor base = (counts.cumsum(0) - counts).repeat_interleave(counts);
  return starts.repeat_interleave(counts) + at::arange(base.size(0), counts.options()) - base;
}

/// The rank-relative all-to-all: on rank r, list position i is peer (r + i) mod W. Chunk i of `x`
/// (sends[i] rows) goes to peer (r + i) mod W; chunk i of the result (recvs[i] rows) comes from it.
inline at::Tensor relative_exchange(Comm& comm, const at::Tensor& x,
                                    const std::vector<std::int64_t>& sends,
                                    const std::vector<std::int64_t>& recvs) {
  const int rank = comm.rank(), world = comm.size();
  const auto send_chunks = x.split_with_sizes(sends);
  std::vector<at::Tensor> by_peer;
  std::vector<std::int64_t> peer_sends, peer_recvs;
  for (int peer = 0; peer < world; ++peer) {  // peer p is relative position (p - r) mod W
    const int i = (peer - rank + world) % world;
    by_peer.push_back(send_chunks[i]);
    peer_sends.push_back(sends[i]);
    peer_recvs.push_back(recvs[i]);
  }
  const at::Tensor received = exchange(comm, at::cat(by_peer), peer_sends, peer_recvs);
  const auto recv_chunks = received.split_with_sizes(peer_recvs);
  std::vector<at::Tensor> relative;
  for (int i = 0; i < world; ++i) relative.push_back(recv_chunks[(rank + i) % world]);
  return at::cat(relative);
}

}  // namespace pkb::ref::gnn
