// The interpreter's hooks into the memory model: every global and shared access a lane makes
// (translate calls race_access once it has the host address), release operations before their
// lanes, and fences. Under `sc` (no detector) each hook is one pointer test.
#include "harness/ptx/decode.h"
#include "harness/ptx/exec_state.h"

namespace pkb::ptx {
namespace {

bool is_atomic_op(const Instr& in) {
  return in.text.substr(0, 4) == "atom" || in.text.substr(0, 3) == "red" || in.text.substr(0, 12) == "multimem.red";
}

}  // namespace

void race_access(ExecState& s, const std::uint8_t* host, std::uint32_t bytes, int lane, Access access, bool multicast) {
  mm::RaceDetector* races = s.machine.races();
  if (!races || !s.instr) return;
  const Instr& in = *s.instr;
  mm::AccessOp op;
  const bool atomic = access == Access::atomic && is_atomic_op(in);
  op.write = access != Access::read;
  // An atomic that returns the old value reads; red and multimem.red do not (never an acquire).
  op.read = access == Access::read || (atomic && in.ops[0].kind != Operand::Kind::addr);
  op.strong = atomic || (in.sem != Sem::weak && !(in.mods & kNc));
  op.rmw = access == Access::atomic;
  op.scope = op.strong ? mm::resolved_scope(in.sem, in.scope, atomic) : Scope::none;
  op.acquire = op.read && (in.sem == Sem::acquire || in.sem == Sem::acq_rel);
  op.multicast = multicast;
  op.pc = static_cast<std::uint32_t>(s.instr - s.launch.program->code.data());
  op.lane = static_cast<std::uint8_t>(lane);
  op.instr = s.instr;
  if (const mm::Finding* finding = races->access(s.warp.agent, reinterpret_cast<std::uint64_t>(host), bytes, op))
    s.machine.report_race(*finding, lane);
}

void race_release(ExecState& s, const Instr& in) {
  mm::RaceDetector* races = s.machine.races();
  if (!races || (in.sem != Sem::release && in.sem != Sem::acq_rel)) return;
  races->release_op(s.warp.agent, mm::resolved_scope(in.sem, in.scope, true), &in);
}

// fence.sc / fence.acq_rel / membar at a scope (aux: kFenceOrder), fence.proxy.alias (kFenceAlias);
// the other proxy fences and fence.mbarrier_init order nothing the detector tracks.
void fence(ExecState& s, const Instr& in, std::uint32_t) {
  mm::RaceDetector* races = s.machine.races();
  if (!races) return;
  if (in.aux == kFenceOrder) races->fence(s.warp.agent, in.scope);
  else if (in.aux == kFenceAlias) races->alias_fence(s.warp.agent);
}

}  // namespace pkb::ptx
