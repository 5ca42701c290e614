// Machine: call and ret of .func functions (parameters copied between the caller's and the
// callee's per-thread frames, the caller's frame kept on the lane group's stack) and lanes that
// exit (a kernel's ret, or exit), which may complete barriers and rendezvous waiting for them.
// A call uses the callee's registers and frame from the kernel's layout, unless the callee is
// already on the group's stack (recursion): then it gets fresh ones above the layout, after the
// innermost frame placed there, and the warp's register file and lane frames grow to hold them. A
// lane's registers and frame are its own, so groups of one warp may use the same offsets.
#include <algorithm>
#include <cstring>
#include <memory>

#include "harness/ptx/exec_state.h"
#include "harness/ptx/lane_bits.h"
#include "harness/ptx/lane_flow.h"

namespace pkb::ptx {
namespace {

// Copies parameter `from` (in the frame at `from_frame`) to `to` (at `to_frame`) for every lane.
void copy_param(ExecState& s, std::uint32_t mask, const Symbol& from, std::int64_t from_frame,
                const Symbol& to, std::int64_t to_frame) {
  const std::uint64_t bytes = std::min(from.bytes, to.bytes);
  each_lane(mask, [&](int lane) {
    std::uint8_t* base = s.frames + static_cast<std::int64_t>(lane) * s.frame_stride;
    std::memmove(base + to_frame + to.offset, base + from_frame + from.offset, bytes);
  });
}

std::int64_t align16(std::int64_t value) { return (value + 15) / 16 * 16; }

[[noreturn]] void stack_overflow(int lane, const std::string& why) {
  lane_fault(
      lane, Fault::Kind::memory,
      "stack overflow: " + why + " (a GPU thread's stack is 1 KiB unless the host raises it)");
}

// Grows the warp's register file to `slots` and its lane frames to `stride` bytes each (zeroed
// where new, so runs stay deterministic), keeping what they hold.
void grow_warp(ExecState& s, std::int32_t slots, std::int64_t stride) {
  Warp& warp = s.warp;
  if (slots > warp.reg_slots) {
    const std::int32_t next = std::max(slots, warp.reg_slots * 2);
    std::unique_ptr<std::uint64_t[]> regs(
        new std::uint64_t[static_cast<std::size_t>(next) * kWarpLanes]());
    std::memcpy(regs.get(), warp.regs.get(),
                static_cast<std::size_t>(warp.reg_slots) * kWarpLanes * 8);
    warp.regs = std::move(regs);
    warp.reg_slots = next;
  }
  if (stride > warp.frame_stride) {
    const std::int64_t next = align16(std::max(stride, warp.frame_stride * 2));
    std::unique_ptr<std::uint8_t[]> frames(
        new std::uint8_t[static_cast<std::size_t>(next) * kWarpLanes]());
    for (int lane = 0; lane < kWarpLanes && warp.frame_stride > 0; ++lane)
      std::memcpy(frames.get() + lane * next, warp.frames.get() + lane * warp.frame_stride,
                  static_cast<std::size_t>(warp.frame_stride));
    warp.frames = std::move(frames);
    warp.frame_stride = next;
    s.frames = warp.frames.get();
    s.frame_stride = next;
  }
}

// Where a recursive call of `fn` keeps its registers and frame: after the innermost frame above
// the layout (frames are pushed in order, so it ends highest), or at the layout's end.
void recursive_frames(ExecState& s, const LaneGroup& group, const Function& fn, int lane,
                      std::int32_t& regs, std::int64_t& frame) {
  const Program& program = *s.launch.program;
  const KernelLayout& layout = *s.launch.layout;
  regs = layout.reg_slots;
  frame = layout.frame_bytes;
  auto placed_above = [&](int function, std::int32_t reg_frame, std::int64_t frame_offset) {
    const auto f_index = static_cast<std::size_t>(function);
    if (reg_frame == layout.reg_frame[f_index] && frame_offset == layout.frame_offset[f_index])
      return false;
    const Function& f = program.functions[f_index];
    regs = reg_frame + (f.end_reg - f.first_reg);
    frame = align16(frame_offset + f.frame_end - f.frame_begin);
    return true;
  };
  if (!placed_above(group.function, group.reg_frame, group.frame_offset))
    for (auto it = group.calls.rbegin(); it != group.calls.rend(); ++it)
      if (placed_above(it->function, it->reg_frame, it->frame_offset)) break;
  const std::int32_t slots = regs + (fn.end_reg - fn.first_reg);
  const std::int64_t stride = align16(frame + fn.frame_end - fn.frame_begin);
  const std::int64_t used =
      (slots - layout.reg_slots) * std::int64_t{8} + (stride - layout.frame_bytes);
  if (used > kMaxStackBytes)
    stack_overflow(lane, "recursive calls of " + fn.name + " need more than " +
                             std::to_string(kMaxStackBytes / 1024) +
                             " KiB of the thread's stack (" +
                             std::to_string(group.calls.size() + 1) + " calls deep)");
  grow_warp(s, slots, stride);
}

}  // namespace

void Machine::enter_call(ExecState& s, LaneGroup& group, const Instr& call) {
  const Program& program = *s.launch.program;
  const int callee = program.symbols[static_cast<std::size_t>(call.ops[1].symbol)].function;
  const Function& fn = program.functions[static_cast<std::size_t>(callee)];
  const int lane = first_lane(group.mask);
  if (!fn.defined)
    lane_fault(lane, Fault::Kind::unsupported, "call of " + fn.name + ", which the module declares but does not define");
  if (static_cast<int>(group.calls.size()) >= kMaxCallDepth)
    stack_overflow(lane, "calls nested deeper than " + std::to_string(kMaxCallDepth));
  bool recursive = group.function == callee;
  for (const CallFrame& frame : group.calls) recursive |= frame.function == callee;
  const KernelLayout& layout = *s.launch.layout;
  std::int32_t callee_regs = layout.reg_frame[static_cast<std::size_t>(callee)];
  std::int64_t callee_frame = layout.frame_offset[static_cast<std::size_t>(callee)];
  if (recursive) recursive_frames(s, group, fn, lane, callee_regs, callee_frame);
  const Operand& args = call.ops[2];
  for (int a = 0; a < args.count && a < static_cast<int>(fn.params.size()); ++a) {
    const Symbol& actual = program.symbols[static_cast<std::size_t>(program.vec_regs[static_cast<std::size_t>(args.reg + a)])];
    const Symbol& formal = program.symbols[static_cast<std::size_t>(fn.params[static_cast<std::size_t>(a)])];
    copy_param(s, group.mask, actual, group.frame_offset, formal, callee_frame);
  }
  group.calls.push_back({group.pc + 1, group.function, group.reg_frame, group.frame_offset});
  group.function = callee;
  group.reg_frame = callee_regs;
  group.frame_offset = callee_frame;
  group.pc = fn.first_pc;
}

void Machine::leave_call(ExecState& s, LaneGroup& group) {
  const Program& program = *s.launch.program;
  const CallFrame frame = group.calls.back();
  group.calls.pop_back();
  const Function& fn = program.functions[static_cast<std::size_t>(group.function)];
  const Instr& call = program.code[static_cast<std::size_t>(frame.return_pc - 1)];
  const Operand& returns = call.ops[0];
  for (int r = 0; r < returns.count && r < static_cast<int>(fn.returns.size()); ++r) {
    const Symbol& formal = program.symbols[static_cast<std::size_t>(fn.returns[static_cast<std::size_t>(r)])];
    const Symbol& actual = program.symbols[static_cast<std::size_t>(program.vec_regs[static_cast<std::size_t>(returns.reg + r)])];
    copy_param(s, group.mask, formal, group.frame_offset, actual, frame.frame_offset);
  }
  group.function = frame.function;
  group.reg_frame = frame.reg_frame;
  group.frame_offset = frame.frame_offset;
  group.pc = frame.return_pc;
  merge_at_pc(s.warp, group);
}

void Machine::exit_lanes(Warp& warp, LaneGroup& group) {
  const std::uint32_t lanes = group.mask;
  if (!warp.async_copies.empty()) {
    ExecState s(*this, warp);
    complete_async_copies(s, lanes);
  }
  warp.exited |= lanes;
  Block& block = *warp.block;
  block.live_threads -= static_cast<std::uint32_t>(lane_count(lanes));
  if (block.live_threads == 0 && !block.bulk_copies.empty()) {
    ExecState s(*this, warp);
    finish_bulk_copies(s);
  }
  free_group(warp, group);
  if (warp.live() == 0) {
    warp.done = true;
    ++block.warps_done;
    if (races_) races_->agent_exit(warp.agent, block.launch->id);
  }
  recheck_barriers(*this, block);
  if (!warp.done) recheck_warp_sync(*this, warp);
}

}  // namespace pkb::ptx
