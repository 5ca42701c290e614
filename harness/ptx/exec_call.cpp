// Machine: call and ret of .func functions (parameters copied between the caller's and the
// callee's per-thread frames, the caller's frame kept on the lane group's stack) and lanes that
// exit (a kernel's ret, or exit), which may complete barriers and rendezvous waiting for them.
#include "harness/ptx/lane_bits.h"
#include <algorithm>
#include <cstring>

#include "harness/ptx/exec_state.h"
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

}  // namespace

void Machine::enter_call(ExecState& s, LaneGroup& group, const Instr& call) {
  const Program& program = *s.launch.program;
  const int callee = program.symbols[static_cast<std::size_t>(call.ops[1].symbol)].function;
  const Function& fn = program.functions[static_cast<std::size_t>(callee)];
  const int lane = first_lane(group.mask);
  if (!fn.defined)
    lane_fault(lane, Fault::Kind::unsupported, "call of " + fn.name + ", which the module declares but does not define");
  if (group.function == callee)
    lane_fault(lane, Fault::Kind::unsupported, "recursive call of " + fn.name);
  for (const CallFrame& frame : group.calls)
    if (frame.function == callee) lane_fault(lane, Fault::Kind::unsupported, "recursive call of " + fn.name);
  if (static_cast<int>(group.calls.size()) >= kMaxCallDepth)
    lane_fault(lane, Fault::Kind::unsupported, "calls nested deeper than " + std::to_string(kMaxCallDepth));
  const KernelLayout& layout = *s.launch.layout;
  const std::int64_t callee_frame = layout.frame_offset[static_cast<std::size_t>(callee)];
  const Operand& args = call.ops[2];
  for (int a = 0; a < args.count && a < static_cast<int>(fn.params.size()); ++a) {
    const Symbol& actual = program.symbols[static_cast<std::size_t>(program.vec_regs[static_cast<std::size_t>(args.reg + a)])];
    const Symbol& formal = program.symbols[static_cast<std::size_t>(fn.params[static_cast<std::size_t>(a)])];
    copy_param(s, group.mask, actual, group.frame_offset, formal, callee_frame);
  }
  group.calls.push_back({group.pc + 1, group.function, group.reg_frame, group.frame_offset});
  group.function = callee;
  group.reg_frame = layout.reg_frame[static_cast<std::size_t>(callee)];
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
  free_group(warp, group);
  if (warp.live() == 0) {
    warp.done = true;
    ++block.warps_done;
  }
  recheck_barriers(*this, block);
  if (!warp.done) recheck_warp_sync(*this, warp);
}

}  // namespace pkb::ptx
