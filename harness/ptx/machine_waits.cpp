// Machine: threads that wait on memory or on time (parked spinners, nanosleep), the virtual clock
// jumps that wake them, and the descriptions of waiting threads for deadlock messages.
#include <algorithm>
#include <sstream>

#include "harness/ptx/exec_state.h"
#include "harness/ptx/lane_flow.h"
#include "harness/ptx/machine.h"

namespace pkb::ptx {

void Machine::watch(LaneGroup* group, Warp* warp, const std::vector<std::uint64_t>& words) {
  const int slot = static_cast<int>(group - warp->groups.data());
  for (std::uint64_t word : words) watches_[word].push_back({warp->id, slot});
  if (words.empty()) watches_[0].push_back({warp->id, slot});  // only the clock can wake it
}

void Machine::wake_watchers(std::uint64_t address, std::uint64_t bytes) {
  for (std::uint64_t word = address & ~3ull; word < address + bytes; word += 4) {
    const auto found = watches_.find(word);
    if (found == watches_.end()) continue;
    const auto waiters = std::move(found->second);
    watches_.erase(found);
    for (const auto& [id, slot] : waiters) {
      const auto warp = warps_by_id_.find(id);
      if (warp == warps_by_id_.end()) continue;
      LaneGroup& group = warp->second->groups[static_cast<std::size_t>(slot)];
      if (group.mask == 0 || group.state != GroupState::parked) continue;
      group.state = GroupState::ready;
      --parked_;
      stalled_jumps_ = 0;
      make_runnable(warp->second);
    }
  }
}

void Machine::unpark_all() {
  for (auto& [id, warp] : warps_by_id_) {
    (void)id;
    bool woke = false;
    for (auto& group : warp->groups)
      if (group.mask != 0 && group.state == GroupState::parked) {
        group.state = GroupState::ready;
        --parked_;
        woke = true;
      }
    if (woke) make_runnable(warp);
  }
  watches_.clear();
  parked_ = 0;
}

void Machine::wake_sleepers() {
  if (sleepers_.empty()) return;
  for (std::size_t i = 0; i < sleepers_.size();) {
    if (sleepers_[i].wake_ns > clock_ns_) {
      ++i;
      continue;
    }
    const Sleeper sleeper = sleepers_[i];
    sleepers_[i] = sleepers_.back();
    sleepers_.pop_back();
    --sleeping_;
    const auto warp = warps_by_id_.find(sleeper.warp);
    if (warp == warps_by_id_.end()) continue;
    LaneGroup& group = warp->second->groups[static_cast<std::size_t>(sleeper.slot)];
    if (group.mask != 0 && group.state == GroupState::sleeping) {
      group.state = GroupState::ready;
      make_runnable(warp->second);
    }
  }
}

std::optional<std::uint64_t> Machine::next_wake() const {
  if (sleepers_.empty()) return std::nullopt;
  std::uint64_t earliest = ~0ull;
  for (const auto& sleeper : sleepers_) earliest = std::min(earliest, sleeper.wake_ns);
  return earliest;
}

void Machine::advance_clock(std::uint64_t ns) {
  clock_ns_ += ns;
  ++stats_.clock_jumps;
  wake_sleepers();
  unpark_all();
}

namespace {

std::string state_text(const Program& program, const Instr& instr, GroupState state) {
  const std::string line = program.source_line(instr);
  std::string what;
  switch (state) {
    case GroupState::barrier: what = "waits at"; break;
    case GroupState::warp_sync: what = "waits for its warp at"; break;
    case GroupState::parked: what = "spins on memory nobody writes, after"; break;
    case GroupState::sleeping: what = "sleeps at"; break;
    default: what = "is at"; break;
  }
  return what + " `" + std::string(instr.text) + "`" + (line.empty() ? "" : " (" + line + ")");
}

std::string lanes_text(std::uint32_t mask) {
  if (mask == 0xFFFFFFFFu) return "all lanes";
  std::string out;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    if (!(mask >> lane & 1)) continue;
    int last = lane;
    while (last + 1 < kWarpLanes && (mask >> (last + 1) & 1)) ++last;
    if (!out.empty()) out += ",";
    out += last == lane ? std::to_string(lane) : std::to_string(lane) + "-" + std::to_string(last);
    lane = last;
  }
  return "lanes " + out;
}

}  // namespace

std::string Machine::describe_waits(int limit) const {
  std::ostringstream out;
  int lines = 0, more = 0;
  for (const auto& block : blocks_) {
    const Launch& launch = *block->launch;
    for (const auto& warp : block->warps) {
      for (const auto& group : warp->groups) {
        if (group.mask == 0) continue;
        // A spinner's pc is past its load; the instruction it last read at is one back.
        const std::int32_t pc = group.state == GroupState::parked ? group.pc - 1 : group.pc;
        if (lines >= limit) {
          ++more;
          continue;
        }
        if (lines > 0) out << "; ";
        out << "rank " << launch.rank << " block " << block->linear << " warp " << warp->index << " "
            << lanes_text(group.mask) << " "
            << state_text(*launch.program, launch.program->code[static_cast<std::size_t>(pc)], group.state);
        ++lines;
      }
    }
  }
  for (std::size_t rank = 0; rank < gpus_.size(); ++rank)
    for (const Launch* launch : gpus_[rank].waiting) {
      if (lines >= limit) {
        ++more;
        continue;
      }
      if (lines > 0) out << "; ";
      out << "rank " << rank << ": " << launch->grid.count() - launch->next_block << " blocks of "
          << launch->program->functions[static_cast<std::size_t>(launch->function)].name
          << " wait for room on the SMs (resident blocks never finish)";
      ++lines;
    }
  if (more > 0) out << "; and " << more << " more";
  return out.str();
}

std::optional<Fault> Machine::stuck_warp_sync() const {
  for (const auto& block : blocks_)
    for (const auto& warp : block->warps)
      if (auto fault = warp_sync_deadlock(*this, *warp)) return fault;
  return std::nullopt;
}

}  // namespace pkb::ptx
