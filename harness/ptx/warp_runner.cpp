// Machine::run_warp: one scheduling quantum of one warp. The ready lane group with the lowest pc
// runs (so divergent paths meet again where they join), straight-line code goes through the
// handlers, and control flow (branches, calls, returns, exits, barriers, warp-sync instructions,
// spin loads, sleeps) decides which lanes move on. A handler's LaneFault becomes the machine's
// fault with the thread, instruction and source line that caused it.
#include "harness/ptx/lane_bits.h"

#include "harness/ptx/decode.h"
#include "harness/ptx/exec_state.h"
#include "harness/ptx/lane_flow.h"

namespace pkb::ptx {
namespace {

// The same strong load returning the same values three times in a row at one pc parks the group
// until the memory it read changes (or time jumps): spinning costs nothing while it waits.
constexpr int kSpinRepeatsToPark = 2;
// A group that ran this many instructions while another group of its warp was ready yields, so
// lanes that wait for lanes of their own warp (an intra-warp lock) still make progress.
constexpr std::uint32_t kGroupSlice = 2048;
// Virtual nanoseconds per warp-instruction: %globaltimer moves with work done.
constexpr std::uint64_t kNsPerWarpInstruction = 1;
// nanosleep waits at most this long (the PTX ISA's bound is 1 ms).
constexpr std::uint64_t kMaxSleepNs = 1'000'000;

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h;
}

std::uint32_t guard_mask(const ExecState& s, const Instr& in, std::uint32_t mask) {
  const std::uint64_t* p = s.regs + static_cast<std::ptrdiff_t>(in.guard) * kWarpLanes;
  std::uint32_t out = 0;
  each_lane(mask, [&](int lane) {
    if ((p[lane] != 0) != in.guard_negate) out |= 1u << lane;
  });
  return out;
}

LaneGroup* choose_group(Warp& warp, LaneGroup* current) {
  if (warp.group_count == 1 && current && current->mask != 0) {
    if (current->state == GroupState::held) current->state = GroupState::ready;
    return current->state == GroupState::ready ? current : nullptr;
  }
  LaneGroup* best = nullptr;
  bool any_held = false;
  for (auto& group : warp.groups) {
    if (group.mask == 0) continue;
    if (group.state == GroupState::held) any_held = true;
    if (group.state != GroupState::ready) continue;
    if (!best || group.pc < best->pc) best = &group;
  }
  if (!best && any_held) {  // only held lanes are left: let them go
    for (auto& group : warp.groups)
      if (group.mask != 0 && group.state == GroupState::held) group.state = GroupState::ready;
    return choose_group(warp, current);
  }
  if (current && current != best && current->mask != 0 && current->state == GroupState::ready &&
      current->steps < kGroupSlice)
    return current;  // keep running until a control event, unless it had its slice
  if (best && best == current && best->steps >= kGroupSlice) {
    // Let another ready group run for a slice.
    for (auto& group : warp.groups)
      if (&group != best && group.mask != 0 && group.state == GroupState::ready) {
        best->steps = 0;
        return &group;
      }
  }
  return best;
}

}  // namespace

// brx.idx index, table: the lanes of `mask` go to the targets their indices pick, one group per
// target; lanes whose guard is false go on. An index past the table's end is undefined: a fault.
void branch_table(ExecState& s, Warp& warp, LaneGroup& group, const Instr& in, std::uint32_t mask) {
  if (mask == 0) {
    ++group.pc;
    return;
  }
  const std::vector<std::int32_t>& table =
      s.launch.program->branch_tables[static_cast<std::size_t>(in.ops[1].imm)];
  const Src index = source(s, in, 0);
  each_lane(mask, [&](int lane) {
    const auto i = static_cast<std::uint32_t>(index[lane]);
    if (i >= table.size())
      lane_fault(lane, Fault::Kind::trap,
                 "brx.idx index " + std::to_string(i) + " is past the end of its branch table of " +
                     std::to_string(table.size()) +
                     " labels (the PTX ISA leaves the jump undefined)");
  });
  int slots[kWarpLanes + 1];
  int moved = 0;
  const auto slot_of = [&](const LaneGroup& g) {
    return static_cast<int>(&g - warp.groups.data());
  };
  if (group.mask & ~mask) {
    LaneGroup& rest = split_group(warp, group, group.mask & ~mask);
    rest.pc = group.pc + 1;
    slots[moved++] = slot_of(rest);
  }
  std::uint32_t left = mask;
  while (left) {
    const std::int32_t target = table[static_cast<std::uint32_t>(index[__builtin_ctz(left)])];
    std::uint32_t lanes = 0;
    each_lane(left, [&](int lane) {
      if (table[static_cast<std::uint32_t>(index[lane])] == target) lanes |= 1u << lane;
    });
    left &= ~lanes;
    LaneGroup& to = left ? split_group(warp, group, lanes) : group;
    to.pc = target;
    slots[moved++] = slot_of(to);
  }
  for (int k = 0; k < moved; ++k)
    merge_at_pc(warp, warp.groups[static_cast<std::size_t>(slots[k])]);
}

// ---- lane groups
bool LaneGroup::same_stack(const LaneGroup& other) const {
  if (function != other.function || reg_frame != other.reg_frame || calls.size() != other.calls.size())
    return false;
  for (std::size_t d = 0; d < calls.size(); ++d)
    if (calls[d].return_pc != other.calls[d].return_pc) return false;
  return true;
}

LaneGroup& split_group(Warp& warp, LaneGroup& group, std::uint32_t lanes) {
  for (auto& slot : warp.groups)
    if (slot.mask == 0) {
      slot = group;
      slot.mask = lanes;
      slot.steps = 0;
      group.mask &= ~lanes;
      ++warp.group_count;
      return slot;
    }
  PKB_ASSERT(false, "a warp has more lane groups than lanes");
  return group;
}

void free_group(Warp& warp, LaneGroup& group) {
  group.mask = 0;
  group.calls.clear();
  group.state = GroupState::ready;
  --warp.group_count;
}

void merge_at_pc(Warp& warp, LaneGroup& group) {
  if (warp.group_count < 2 || group.mask == 0 || group.state != GroupState::ready) return;
  for (auto& other : warp.groups) {
    if (&other == &group || other.mask == 0 || other.pc != group.pc) continue;
    if (other.state != GroupState::ready || !group.same_stack(other)) continue;
    group.mask |= other.mask;
    group.spin_count = 0;
    free_group(warp, other);
  }
}

// ---- the quantum
void Machine::run_warp(Warp& warp, std::uint64_t& budget) {
  const Program& program = *warp.block->launch->program;
  ExecState s(*this, warp);
  const Instr* const code = program.code.data();

  std::uint32_t quantum = 200;
  if (schedule_.policy == SchedulePolicy::random) quantum = 1 + static_cast<std::uint32_t>(random_.below(400));
  else if (schedule_.policy != SchedulePolicy::fair) quantum = 1000;

  LaneGroup* g = choose_group(warp, nullptr);
  if (g && schedule_.policy == SchedulePolicy::random && lane_count(g->mask) > 1 &&
      random_.below(4) == 0) {
    // Independent thread scheduling: hold some lanes back while the others run ahead.
    const std::uint32_t held = g->mask & static_cast<std::uint32_t>(random_.next());
    if (held != 0 && held != g->mask) {
      LaneGroup& back = split_group(warp, *g, held);
      back.state = GroupState::held;
      warp.hold_left = 1 + static_cast<std::uint32_t>(random_.below(64));
    }
  }
  std::uint64_t executed = 0;
  try {
    while (g && quantum > 0 && budget > 0 && !fault_) {
      s.group = g;
      s.regs = warp.regs.get() + static_cast<std::ptrdiff_t>(g->reg_frame) * kWarpLanes;
      bool rechoose = false;
      while (!rechoose && quantum > 0) {
        PKB_ASSERT(g->mask != 0 && g->pc >= 0 && g->pc < static_cast<std::int32_t>(program.code.size()),
                   "a lane group ran off its code");
        const Instr& in = code[g->pc];
        s.instr = &in;
        std::uint32_t mask = g->mask;
        if (in.guard >= 0) mask = guard_mask(s, in, mask);
        const auto lanes = static_cast<std::uint64_t>(lane_count(mask));
        stats_.lane_instructions += lanes;
        budget = budget > lanes ? budget - lanes : 0;
        ++executed;
        --quantum;
        ++g->steps;
        if (warp.hold_left > 0 && --warp.hold_left == 0)
          for (auto& group : warp.groups)
            if (group.mask != 0 && group.state == GroupState::held) group.state = GroupState::ready;
        switch (in.flow) {
          case Flow::simple:
            if (mask) in.handler(s, in, mask);
            ++g->pc;
            if (warp.group_count > 1 && code[g->pc].join) {
              merge_at_pc(warp, *g);
              rechoose = true;
            }
            break;
          case Flow::branch: {
            const std::int32_t target = in.ops[0].symbol;
            if (mask == g->mask) {
              g->pc = target;
            } else if (mask == 0) {
              ++g->pc;
            } else {
              LaneGroup& rest = split_group(warp, *g, g->mask & ~mask);
              rest.pc = g->pc + 1;
              g->pc = target;
              merge_at_pc(warp, rest);
              rechoose = true;
            }
            if (warp.group_count > 1) {
              merge_at_pc(warp, *g);
              rechoose = true;
            }
            break;
          }
          case Flow::branch_table:
            branch_table(s, warp, *g, in, mask);
            rechoose = true;
            break;
          case Flow::spin_load: {
            if (mask == 0) {
              ++g->pc;
              break;
            }
            s.load_hash = 0;
            s.loaded_words.clear();
            in.handler(s, in, mask);
            const std::uint64_t hash = mix(mix(s.load_hash, static_cast<std::uint64_t>(g->pc)), mask);
            ++g->pc;
            if (g->spin_pc == g->pc && g->spin_hash == hash) {
              if (++g->spin_count >= kSpinRepeatsToPark) {
                g->spin_count = 0;
                g->state = GroupState::parked;
                ++parked_;
                watch(g, &warp, s.loaded_words);
                rechoose = true;
              }
            } else {
              g->spin_pc = g->pc;
              g->spin_hash = hash;
              g->spin_count = 0;
            }
            break;
          }
          case Flow::barrier:
          case Flow::warp_sync: {
            if (mask == 0) {
              ++g->pc;
              break;
            }
            if (mask != g->mask) {  // lanes whose guard is false step over it
              LaneGroup& rest = split_group(warp, *g, g->mask & ~mask);
              ++rest.pc;
              rechoose = true;
            }
            const bool goes_on = in.flow == Flow::barrier ? arrive_barrier(s, *g, in, mask)
                                                          : arrive_warp_sync(s, *g, in, mask);
            if (!goes_on || warp.group_count > 1 || g->mask == 0) rechoose = true;
            break;
          }
          case Flow::call:
            if (mask != g->mask) {
              if (mask == 0) {
                ++g->pc;
                break;
              }
              LaneGroup& rest = split_group(warp, *g, g->mask & ~mask);
              rest.pc = g->pc + 1;
            }
            enter_call(s, *g, in);
            rechoose = true;
            break;
          case Flow::ret:
          case Flow::exit: {
            if (mask == 0) {
              ++g->pc;
              break;
            }
            if (mask != g->mask) {
              LaneGroup& rest = split_group(warp, *g, g->mask & ~mask);
              rest.pc = g->pc + 1;
            }
            if (in.flow == Flow::ret && !g->calls.empty()) {
              leave_call(s, *g);
            } else {
              exit_lanes(warp, *g);
              g = nullptr;
            }
            rechoose = true;
            break;
          }
          case Flow::nanosleep: {
            if (mask == 0) {
              ++g->pc;
              break;
            }
            const Src t = source(s, in, 0);
            std::uint64_t ns = static_cast<std::uint32_t>(t[first_lane(mask)]);
            if (ns > kMaxSleepNs) ns = kMaxSleepNs;
            ++g->pc;
            g->state = GroupState::sleeping;
            g->wake_ns = clock_ns_ + ns + 1;
            sleepers_.push_back({g->wake_ns, warp.id, static_cast<int>(g - warp.groups.data())});
            ++sleeping_;
            rechoose = true;
            break;
          }
          case Flow::trap:
          case Flow::brkpt:
            if (mask == 0) {
              ++g->pc;
              break;
            }
            lane_fault(first_lane(mask), Fault::Kind::trap,
                       in.flow == Flow::trap ? "trap (__trap() or a failed check such as a spin timeout)"
                                             : "brkpt");
            break;
          case Flow::unsupported:
            if (mask == 0) {
              ++g->pc;
              break;
            }
            lane_fault(first_lane(mask), Fault::Kind::unsupported,
                       program.notes.at(static_cast<std::size_t>(in.aux)));
            break;
          case Flow::mbarrier_wait:
          case Flow::cp_async_wait:
            if (mask) in.handler(s, in, mask);
            ++g->pc;
            break;
        }
      }
      if (warp.done) break;
      g = choose_group(warp, g);
    }
  } catch (const LaneFault& lane) {
    Fault fault;
    fault.kind = lane.kind;
    fault.rank = warp.block->launch->rank;
    fault.message = lane.located ? lane.message : lane.message + ": " + where(warp, lane.lane, s.instr);
    fault_ = fault;
  }
  stats_.warp_instructions += executed;
  clock_ns_ += executed * kNsPerWarpInstruction;
}

}  // namespace pkb::ptx
