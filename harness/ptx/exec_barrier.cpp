// A block's 16 named barriers: bar.sync / barrier.sync (wait), bar.arrive (count in, go on),
// bar.red.{popc,and,or} (wait, and get the reduction of a predicate). Threads are counted one
// by one: a barrier with a count completes when that many threads have arrived, one without when
// every live thread of the block has (exited threads never block it, as the PTX ISA says). It
// also orders memory: the memory model's detector joins what the arrivals knew.
#include "harness/ptx/lane_bits.h"

#include "harness/ptx/decode.h"
#include "harness/ptx/exec_state.h"
#include "harness/ptx/lane_flow.h"

namespace pkb::ptx {
namespace {

enum BarrierKind { kSync = 0, kArrive = 1, kRedPopc = 2, kRedAnd = 3, kRedOr = 4 };

// Operand positions: bar.red has its destination first and its predicate last.
int id_operand(const Instr& in) { return in.aux >= kRedPopc ? 1 : 0; }
bool has_count(const Instr& in) {
  const int needed = in.aux >= kRedPopc ? 3 : 1;
  return in.nops > needed;
}

std::uint32_t first_value(ExecState& s, const Instr& in, int k, std::uint32_t mask) {
  return static_cast<std::uint32_t>(source(s, in, k)[first_lane(mask)]);
}

void release(Machine& machine, Block& block, int id) {
  NamedBarrier& barrier = block.barriers[static_cast<std::size_t>(id)];
  if (mm::RaceDetector* races = machine.races()) {
    // Every live thread's arrival (no count) makes a new generation of the block.
    std::vector<std::uint32_t> waiting;
    for (auto& warp : block.warps)
      for (auto& group : warp->groups)
        if (group.mask != 0 && group.state == GroupState::barrier && group.wait_id == id) {
          waiting.push_back(warp->agent);
          break;
        }
    races->barrier_complete(block.cta, id, barrier.expected == 0, waiting);
  }
  for (auto& warp : block.warps) {
    bool woke = false;
    for (auto& group : warp->groups) {
      if (group.mask == 0 || group.state != GroupState::barrier || group.wait_id != id) continue;
      const Instr& in = warp->block->launch->program->code[static_cast<std::size_t>(group.pc)];
      if (in.aux >= kRedPopc) {
        std::uint64_t* dst = warp->regs.get() +
                             static_cast<std::ptrdiff_t>(group.reg_frame + in.ops[0].reg) * kWarpLanes;
        const std::uint64_t value = in.aux == kRedPopc ? barrier.popc
                                    : in.aux == kRedAnd ? (barrier.all ? 1 : 0)
                                                        : (barrier.any ? 1 : 0);
        each_lane(group.mask, [&](int lane) { dst[lane] = value; });
      }
      group.state = GroupState::ready;
      ++group.pc;
      woke = true;
    }
    if (woke) {
      for (auto& group : warp->groups)
        if (group.mask != 0) merge_at_pc(*warp, group);
      machine.make_runnable(warp.get());
    }
  }
  barrier = NamedBarrier{};
}

bool complete(const Block& block, int id) {
  const NamedBarrier& barrier = block.barriers[static_cast<std::size_t>(id)];
  if (!barrier.active) return false;
  const std::uint32_t target = barrier.expected ? barrier.expected : block.live_threads;
  return barrier.arrived >= target;
}

}  // namespace

bool arrive_barrier(ExecState& s, LaneGroup& group, const Instr& in, std::uint32_t mask) {
  const std::uint32_t id = first_value(s, in, id_operand(in), mask);
  const int lane = first_lane(mask);
  if (id >= kNamedBarriers)
    lane_fault(lane, Fault::Kind::trap, "barrier id " + std::to_string(id) + " (ids are 0..15)");
  NamedBarrier& barrier = s.block.barriers[id];
  barrier.active = true;
  if (has_count(in)) {
    const std::uint32_t count = first_value(s, in, id_operand(in) + 1, mask);
    if (count == 0 || count % kWarpLanes != 0)
      lane_fault(lane, Fault::Kind::trap,
                 "barrier thread count " + std::to_string(count) + " is not a positive multiple of 32");
    barrier.expected = count;
  }
  barrier.arrived += static_cast<std::uint32_t>(lane_count(mask));
  if (mm::RaceDetector* races = s.machine.races()) races->barrier_arrive(s.warp.agent, s.block.cta, static_cast<int>(id));
  if (in.aux >= kRedPopc) {
    const Operand& c = in.ops[in.nops - 1];
    const Src p = source(s, in, in.nops - 1);
    each_lane(mask, [&](int l) {
      const bool value = (p[l] != 0) != c.negate;
      barrier.popc += value ? 1 : 0;
      barrier.all = barrier.all && value;
      barrier.any = barrier.any || value;
    });
  }
  if (in.aux == kArrive) {
    ++group.pc;
    if (complete(s.block, static_cast<int>(id))) release(s.machine, s.block, static_cast<int>(id));
    return true;
  }
  group.state = GroupState::barrier;
  group.wait_id = static_cast<std::int32_t>(id);
  if (complete(s.block, static_cast<int>(id))) release(s.machine, s.block, static_cast<int>(id));
  return group.state == GroupState::ready && group.mask != 0;  // it may have merged into another
}

void recheck_barriers(Machine& machine, Block& block) {
  for (int id = 0; id < kNamedBarriers; ++id)
    if (complete(block, id)) release(machine, block, id);
}

}  // namespace pkb::ptx
