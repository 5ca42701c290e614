// SimDevice::synchronize: runs every rank's streams to their end. Work at the head of a stream
// starts when what it waits for is done (events, the other ranks' halves of a collective or a
// barrier, a delay's virtual time); memsets, copies, fills, gemm and collectives happen the
// moment they start, kernels run on the interpreter until they finish. When no thread can move,
// the virtual clock jumps (to the next sleeper or delay, or in growing steps while spinners
// wait, so their time-outs trap); a wait nothing can end is reported as a timeout naming where
// every thread waits. A rank whose streams are done has ended its call, and a peer's kernel that
// still touches its memory faults (on a GPU that rank's next call may already be reusing it). A thread's fault ends the call and leaves the device failed, as a sticky
// CUDA error leaves its context.
#include <algorithm>
#include <cstring>

#include "harness/device/collective_moves_host.h"
#include "harness/executor/device_error.h"
#include "harness/sim/host_gemm.h"
#include "harness/sim/sim_device.h"

namespace pkb::harness {
namespace {

// Virtual time a call may take: well past PKB_SPIN_TIMEOUT_NS (10 s), so a spin wait with a
// time-out traps (a runtime_error, as on a GPU) before the call is declared hung.
constexpr double kMinCallVirtualSeconds = 30;
// Clock jumps while every thread spins: from 1 us, doubling, at most 1 s.
constexpr std::uint64_t kFirstJumpNs = 1'000;
constexpr std::uint64_t kMaxJumpNs = 1'000'000'000;
constexpr int kWaitLines = 6;
// Memory-model warnings kept per sample (each names both accesses; the first few say enough).
constexpr std::size_t kMaxWarnings = 4;

std::string lane_budget_text(std::uint64_t budget) {
  return std::to_string(budget / 1'000'000) + " million lane-instructions";
}

}  // namespace

std::string SimDevice::ended_peer(int rank, DevAddr address, std::uint64_t bytes) const {
  const ptx::MemoryMap& memory = machine_.memory();
  if (!memory.any_call_ended() || bytes == 0) return "";
  const ptx::Region* region = memory.find(address, bytes);
  if (!region || !memory.ended_for(*region, rank)) return "";
  return ptx::after_call_text(*region);
}

bool SimDevice::all_idle() const {
  for (const auto& rank : ranks_)
    for (const auto& queue : rank.streams)
      if (!queue.empty()) return false;
  return true;
}

// Starts (and for instantaneous work, finishes) the head of `work`'s stream. True when it is done.
bool SimDevice::try_start(int rank, int stream_index, Work& work, SyncResult& failure) {
  Rank& state = ranks_[static_cast<std::size_t>(rank)];
  const bool ordered = machine_.races() != nullptr;
  switch (work.kind) {
    case Work::Kind::launch:
      if (!work.started) {
        try {
          const auto& k = work.kernel;
          if (ordered) machine_.set_launch_order(order_of(rank, stream_index, work));
          work.launch_id = machine_.launch(rank, k.kernel, {k.grid.x, k.grid.y, k.grid.z},
                                           {k.block.x, k.block.y, k.block.z},
                                           {k.cluster.x ? k.cluster.x : 1, k.cluster.y ? k.cluster.y : 1,
                                            k.cluster.z ? k.cluster.z : 1},
                                           k.shared_bytes, k.cooperative, k.params);
        } catch (const ptx::LaunchRefused& refused) {
          failure = {false, false, rank, std::string("launch of ") + work.kernel.kernel + ": " + refused.what()};
          return false;
        }
        work.started = true;
      }
      return false;  // done when the machine says the launch finished
    case Work::Kind::memset:
      if (ordered && !step_access(rank, stream_index, work, "memset", {{work.dst, work.bytes, true}})) return false;
      std::memset(reinterpret_cast<void*>(work.dst), work.value, work.bytes);
      wrote(work.dst, work.bytes);
      return true;
    case Work::Kind::copy:
      // A copy step reaches into a peer like a kernel does: not once the peer's call has ended.
      for (const auto& [address, verb] : {std::pair{work.src, "reads"}, std::pair{work.dst, "writes"}})
        if (const std::string race = ended_peer(rank, address, work.bytes); !race.empty()) {
          failure = {false, false, rank, std::string("a copy step ") + verb + " " + race};
          failure.race = true;
          return false;
        }
      if (ordered && !step_access(rank, stream_index, work, "copy",
                                  {{work.src, work.bytes, false}, {work.dst, work.bytes, true}}))
        return false;
      std::memmove(reinterpret_cast<void*>(work.dst), reinterpret_cast<const void*>(work.src), work.bytes);
      wrote(work.dst, work.bytes);
      return true;
    case Work::Kind::fill: {
      // The harness's fill before a call: nothing of this call touched it yet.
      if (ordered) machine_.races()->forget(work.dst, work.bytes);
      auto* out = reinterpret_cast<std::uint8_t*>(work.dst);
      for (std::uint64_t at = 0; at < work.bytes; ++at)
        out[at] = static_cast<std::uint8_t>(work.pattern.value >> (8 * (at % work.pattern.unit_bytes)));
      wrote(work.dst, work.bytes);
      return true;
    }
    case Work::Kind::gemm:
      if (ordered) {
        // C is row-major with leading dimension ldc: m rows of n elements written.
        const GemmCall& g = work.gemm;
        const std::uint64_t element = dtype_size(g.c_dtype);
        std::vector<std::tuple<DevAddr, std::uint64_t, bool>> rows;
        for (std::int64_t row = 0; row < g.m; ++row)
          rows.emplace_back(g.c + static_cast<std::uint64_t>(row * g.ldc) * element,
                            static_cast<std::uint64_t>(g.n) * element, true);
        if (!step_access(rank, stream_index, work, "gemm", rows)) return false;
      }
      host_gemm(work.gemm);
      wrote(work.gemm.c, static_cast<std::uint64_t>(work.gemm.m) * static_cast<std::uint64_t>(work.gemm.ldc) *
                             dtype_size(work.gemm.c_dtype));
      return true;
    case Work::Kind::record: {
      Event& event = state.events[work.event];
      event.completed = std::max(event.completed, work.sequence);
      event.at_ns = machine_.now_ns();
      return true;
    }
    case Work::Kind::wait: {
      const Event& event = state.events[work.event];
      if (event.completed < work.sequence) return false;
      if (ordered && event.known) stream_known(rank, stream_index).join(*event.known, ptx::mm::Strength::ordered);
      return true;
    }
    case Work::Kind::delay:
      if (!work.started) {
        work.started = true;
        work.until_ns = machine_.now_ns() + work.ns;
      }
      return machine_.now_ns() >= work.until_ns;
    case Work::Kind::collective:
      if (!work.started) {
        work.started = true;
        ++group_arrived_[work.group];
      }
      return false;  // the group completes in advance()
    case Work::Kind::barrier:
      if (!work.started) {
        work.started = true;
        ++barrier_arrived_[work.group];
      }
      return false;
  }
  return false;
}

void SimDevice::mark_call_ends() {
  for (int rank = 0; rank < world_; ++rank) {
    if (machine_.memory().call_ended(rank)) continue;
    const auto& streams = ranks_[static_cast<std::size_t>(rank)].streams;
    if (std::all_of(streams.begin(), streams.end(), [](const auto& queue) { return queue.empty(); }))
      machine_.memory().set_call_ended(rank, true);
  }
}

bool SimDevice::advance() {
  bool changed = false;
  SyncResult failure;
  for (int rank = 0; rank < world_; ++rank) {
    // A rank whose streams are done has ended its call: from now on its memory is off limits to
    // its peers' kernels and copy steps (memory_map.h). Marked before each rank's turn, so the
    // copies of a later rank in this pass see an earlier rank that just ended.
    mark_call_ends();
    auto& streams = ranks_[static_cast<std::size_t>(rank)].streams;
    for (std::size_t s = 0; s < streams.size(); ++s) {
      auto& queue = streams[s];
      while (!queue.empty()) {
        const bool was_started = queue.front().started;
        if (!try_start(rank, static_cast<int>(s), queue.front(), failure)) {
          if (lost_) return false;
          if (!failure.ok) {
            lost_ = failure;
            return false;
          }
          changed = changed || (queue.front().started && !was_started);
          // Calls of one group on one stream are one NCCL call sequence: all arrive together.
          if (queue.front().kind == Work::Kind::collective)
            for (std::size_t next = 1; next < queue.size(); ++next) {
              Work& later = queue[next];
              if (later.kind != Work::Kind::collective || later.group != queue.front().group) break;
              if (!later.started) {
                later.started = true;
                ++group_arrived_[later.group];
                changed = true;
              }
            }
          break;
        }
        done(rank, static_cast<int>(s), queue.front());
        queue.pop_front();
        changed = true;
      }
    }
  }
  // Collectives whose every call has reached the head of its stream, and barriers every rank has
  // reached: they happen now, and their stream heads are done.
  for (auto group = groups_.begin(); group != groups_.end();) {
    if (group_arrived_[group->first] < static_cast<int>(group->second.size())) {
      ++group;
      continue;
    }
    // The memory model: the moves are one step agent's writes (after what every call knew), and
    // the calls meet once they are done (each participant then knows what all knew).
    std::vector<std::tuple<int, int, std::uint32_t>> met;
    for (const auto& issued : group->second) {
      const auto& queue = stream(issued.rank, issued.stream);
      std::uint32_t last = queue.front().order;
      for (const Work& item : queue) {
        if (item.kind != Work::Kind::collective || item.group != group->first) break;
        last = item.order;
      }
      met.emplace_back(issued.rank, issued.stream, last);
    }
    std::uint32_t mover = 0;
    if (machine_.races()) {
      // It starts knowing what every call knew; it is the first call's work item.
      auto before = std::make_shared<ptx::mm::Knowledge>();
      for (const auto& issued : group->second) before->join(stream_known(issued.rank, issued.stream), ptx::mm::Strength::ordered);
      const auto& first = group->second.front();
      ptx::LaunchOrder order = order_of(first.rank, first.stream, stream(first.rank, first.stream).front());
      order.before = std::move(before);
      mover = machine_.add_step_agent(order, first.rank, "collective");
    }
    bool raced = false;
    try {
      run_moves_on_host(plan_collective_moves(group->second, world_), [&](DevAddr address, std::uint64_t bytes) {
        if (mover && !raced && !machine_.step_access(mover, address, bytes, true)) raced = true;
        wrote(address, bytes);
      });
    } catch (const Error& error) {
      lost_ = SyncResult{false, false, group->second.front().rank, error.what()};
      return false;
    }
    if (raced) {
      SyncResult raced_call{false, false, group->second.front().rank, machine_.race_findings().back().message};
      raced_call.race = true;
      lost_ = raced_call;
      return false;
    }
    join_streams(met);
    for (const auto& issued : group->second) {
      auto& queue = stream(issued.rank, issued.stream);
      while (!queue.empty() && queue.front().kind == Work::Kind::collective && queue.front().group == group->first)
        queue.pop_front();
    }
    group_arrived_.erase(group->first);
    group = groups_.erase(group);
    changed = true;
  }
  for (auto generation = barrier_arrived_.begin(); generation != barrier_arrived_.end();) {
    if (generation->second < world_) {
      ++generation;
      continue;
    }
    std::vector<std::tuple<int, int, std::uint32_t>> met;
    for (int rank = 0; rank < world_; ++rank) {
      auto& streams = ranks_[static_cast<std::size_t>(rank)].streams;
      for (std::size_t s = 0; s < streams.size(); ++s)
        if (!streams[s].empty() && streams[s].front().kind == Work::Kind::barrier &&
            streams[s].front().group == generation->first)
          met.emplace_back(rank, static_cast<int>(s), streams[s].front().order);
    }
    join_streams(met);
    for (const auto& [rank, s, order] : met) stream(rank, s).pop_front();
    generation = barrier_arrived_.erase(generation);
    changed = true;
  }
  mark_call_ends();
  return changed;
}

void SimDevice::reset_call_ends() {
  for (int rank = 0; rank < world_; ++rank) machine_.memory().set_call_ended(rank, false);
}

std::string SimDevice::stream_waits() const {
  std::string out;
  for (int rank = 0; rank < world_; ++rank) {
    const auto& streams = ranks_[static_cast<std::size_t>(rank)].streams;
    for (std::size_t s = 0; s < streams.size(); ++s) {
      if (streams[s].empty()) continue;
      const Work& head = streams[s].front();
      std::string what;
      switch (head.kind) {
        case Work::Kind::wait: what = "waits for an event no step records"; break;
        case Work::Kind::collective: what = "waits for the other ranks' halves of a collective"; break;
        case Work::Kind::barrier: what = "waits at a barrier step for the other ranks"; break;
        default: continue;
      }
      out += "; rank " + std::to_string(rank) + " stream " + std::to_string(s) + " " + what;
    }
  }
  return out;
}

SyncResult SimDevice::synchronize(double timeout_s) {
  if (lost_) return *lost_;
  ++calls_;
  notes_.clear();
  machine_.clear_undefined_note();
  machine_.begin_call();
  for (auto& rank : ranks_) rank.known.clear();
  reset_call_ends();
  const std::uint64_t start_ns = machine_.now_ns();
  const double seconds = std::max(timeout_s, kMinCallVirtualSeconds);
  const std::uint64_t deadline_ns = start_ns + static_cast<std::uint64_t>(seconds * 1e9);
  const std::uint64_t budget = options_.call_lane_budget;
  const std::uint64_t first_instruction = machine_.stats().lane_instructions;
  std::uint64_t jump = kFirstJumpNs;
  auto hang = [&](const std::string& why) {
    SyncResult result{false, true, 0, why};
    lost_ = result;
    return result;
  };
  while (true) {
    while (advance()) {
    }
    if (lost_) return *lost_;
    if (all_idle() && !machine_.busy()) break;
    const std::uint64_t used = machine_.stats().lane_instructions - first_instruction;
    if (used >= budget)
      return hang("did not finish within " + lane_budget_text(budget) + " (the simulated node's limit for one call): " +
                  machine_.describe_waits(kWaitLines));
    const ptx::RunResult run = machine_.run(budget - used);
    switch (run.kind) {
      case ptx::RunResult::Kind::launches_done:
        for (std::uint64_t id : run.finished)
          for (int rank = 0; rank < world_; ++rank) {
            auto& streams = ranks_[static_cast<std::size_t>(rank)].streams;
            for (std::size_t s = 0; s < streams.size(); ++s)
              if (!streams[s].empty() && streams[s].front().kind == Work::Kind::launch &&
                  streams[s].front().launch_id == id) {
                done(rank, static_cast<int>(s), streams[s].front());
                streams[s].pop_front();
              }
          }
        jump = kFirstJumpNs;
        continue;
      case ptx::RunResult::Kind::fault: {
        SyncResult result{false, false, run.fault->rank, run.fault->message};
        result.not_executed = run.fault->kind == ptx::Fault::Kind::unsupported;
        result.race = run.fault->kind == ptx::Fault::Kind::race;
        lost_ = result;
        return result;
      }
      case ptx::RunResult::Kind::budget: continue;  // the check above reports it
      case ptx::RunResult::Kind::idle: break;
    }
    // Nothing can run now. Time first: delays and sleepers end at a known time.
    std::uint64_t next = ~0ull;
    for (const auto& rank : ranks_)
      for (const auto& queue : rank.streams)
        if (!queue.empty() && queue.front().kind == Work::Kind::delay && queue.front().started)
          next = std::min(next, queue.front().until_ns);
    if (const auto wake = machine_.next_wake()) next = std::min(next, *wake);
    if (next != ~0ull) {
      if (next > deadline_ns) return hang("did not finish within " + std::to_string(static_cast<int>(seconds)) + " s of virtual time");
      machine_.advance_clock(next > machine_.now_ns() ? next - machine_.now_ns() : 0);
      continue;
    }
    if (const auto stuck = machine_.stuck_warp_sync()) {
      SyncResult result{false, false, stuck->rank, stuck->message};
      lost_ = result;
      return result;
    }
    if (machine_.has_parked()) {
      // Spinners wait for memory nobody writes; only time can change what they see.
      if (machine_.now_ns() + jump > deadline_ns)
        return hang("did not finish within " + std::to_string(static_cast<int>(seconds)) +
                    " s of virtual time: " + machine_.describe_waits(kWaitLines) + stream_waits());
      machine_.advance_clock(jump);
      jump = std::min(kMaxJumpNs, jump * 2);
      continue;
    }
    return hang("deadlock: no thread and no stream can move: " + machine_.describe_waits(kWaitLines) +
                stream_waits());
  }
  notes_ = machine_.undefined_note();
  forget_orders();
  reset_call_ends();
  // The shadow's bound (memory_model/shadow.h): say that part of the call went unchecked.
  if (machine_.races() && machine_.races()->shadow_overflowed() &&
      std::find(warning_sites_.begin(), warning_sites_.end(), "shadow") == warning_sites_.end()) {
    warnings_.push_back("the memory model checked only the first 32 MiB this call touched; accesses beyond were not "
                        "checked for races");
    warning_sites_.push_back("shadow");
  }
  for (const auto& finding : machine_.race_findings())
    if (finding.warning && warnings_.size() < kMaxWarnings &&
        std::find(warning_sites_.begin(), warning_sites_.end(), finding.site) == warning_sites_.end()) {
      warnings_.push_back(finding.message);
      warning_sites_.push_back(finding.site);
    }
  return {};
}

}  // namespace pkb::harness
