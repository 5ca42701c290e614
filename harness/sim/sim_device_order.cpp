// The simulated device's part of the memory model (harness/ptx/memory_model): what each plan step
// knows has happened before it. Stream order (a step knows every earlier step of its stream and
// what those knew, a kernel what its warps learned), event waits (what the recording knew),
// collectives and barrier steps (every participant knows what all knew at the meeting). Memsets,
// copies, gemm and collectives touch memory as agents of their own, so a kernel that reads a
// buffer a concurrent step writes races like a kernel against a kernel.
#include "harness/sim/sim_device.h"

namespace pkb::harness {

ptx::mm::Knowledge& SimDevice::stream_known(int rank, int stream) {
  auto& known = ranks_[static_cast<std::size_t>(rank)].known;
  if (known.size() <= static_cast<std::size_t>(stream)) known.resize(static_cast<std::size_t>(stream) + 1);
  auto& slot = known[static_cast<std::size_t>(stream)];
  if (!slot) slot = std::make_shared<ptx::mm::Knowledge>();
  else if (slot.use_count() > 1) slot = std::make_shared<ptx::mm::Knowledge>(*slot);
  return *slot;
}

ptx::LaunchOrder SimDevice::order_of(int rank, int stream, const Work& work) {
  ptx::LaunchOrder order;
  stream_known(rank, stream);
  order.before = ranks_[static_cast<std::size_t>(rank)].known[static_cast<std::size_t>(stream)];
  order.slot = static_cast<std::uint32_t>(rank) * ptx::mm::kStreamsPerRank + static_cast<std::uint32_t>(stream);
  order.seq = work.order;
  return order;
}

void SimDevice::done(int rank, int stream, const Work& work) {
  if (!machine_.races()) return;
  ptx::mm::Knowledge& known = stream_known(rank, stream);
  if (work.kind == Work::Kind::launch)
    if (auto end = machine_.take_launch_knowledge(work.launch_id)) known.join(*end, ptx::mm::Strength::ordered);
  if (work.kind == Work::Kind::record) {
    ranks_[static_cast<std::size_t>(rank)].events[work.event].known =
        std::make_shared<ptx::mm::Knowledge>(known);
  }
  known.raise_stream(static_cast<std::uint32_t>(rank) * ptx::mm::kStreamsPerRank + static_cast<std::uint32_t>(stream),
                     work.order, ptx::mm::Strength::ordered);
}

void SimDevice::join_streams(const std::vector<std::tuple<int, int, std::uint32_t>>& streams) {
  if (!machine_.races()) return;
  auto all = std::make_shared<ptx::mm::Knowledge>();
  for (const auto& [rank, stream, order] : streams) {
    all->join(stream_known(rank, stream), ptx::mm::Strength::ordered);
    all->raise_stream(static_cast<std::uint32_t>(rank) * ptx::mm::kStreamsPerRank + static_cast<std::uint32_t>(stream),
                      order, ptx::mm::Strength::ordered);
  }
  for (const auto& [rank, stream, order] : streams)
    ranks_[static_cast<std::size_t>(rank)].known[static_cast<std::size_t>(stream)] = all;
}

bool SimDevice::step_access(int rank, int stream, const Work& work, const char* what,
                            const std::vector<std::tuple<DevAddr, std::uint64_t, bool>>& ranges) {
  if (!machine_.races()) return true;
  const std::uint32_t agent = machine_.add_step_agent(order_of(rank, stream, work), rank, what);
  for (const auto& [address, bytes, write] : ranges)
    if (!machine_.step_access(agent, address, bytes, write)) {
      SyncResult failure{false, false, rank, machine_.race_findings().back().message};
      failure.race = true;
      lost_ = failure;
      return false;
    }
  return true;
}

void SimDevice::forget_orders() {
  for (auto& rank : ranks_) {
    rank.known.clear();
    rank.issued.clear();
    for (auto& [id, event] : rank.events) event.known.reset();
  }
}

}  // namespace pkb::harness
