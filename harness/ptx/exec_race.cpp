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
bool is_async_copy(const Instr& in) {
  if (in.text.empty() || in.text[0] != 'c') return false;  // every store asks: answer ld/st at once
  return (in.text.substr(0, 8) == "cp.async" && in.text.substr(0, 17) != "cp.async.mbarrier") ||
         in.text.substr(0, 15) == "cp.reduce.async";
}
bool is_mbarrier_op(const Instr& in) {
  return in.text.substr(0, 8) == "mbarrier" || in.text.substr(0, 17) == "cp.async.mbarrier";
}

}  // namespace

void race_access(ExecState& s, const std::uint8_t* host, std::uint32_t bytes, int lane, Access access, bool multicast) {
  mm::RaceDetector* races = s.machine.races();
  if (!races || !s.instr) return;
  const Instr& in = *s.instr;
  const auto address = reinterpret_cast<std::uint64_t>(host);
  // An asynchronous copy's destination is written by its proxy when the copy completes, which a
  // wait (cp.async.wait_group, an mbarrier phase) orders: not checked (memory_model/README.md).
  if (access != Access::read && is_async_copy(in)) {
    races->forget(address, bytes);
    return;
  }
  mm::AccessOp op;
  op.pc = static_cast<std::uint32_t>(s.instr - s.launch.program->code.data());
  op.lane = static_cast<std::uint8_t>(lane);
  op.instr = s.instr;
  if (is_mbarrier_op(in)) {
    // An mbarrier object: arrivals are release RMWs, test_wait / try_wait acquire reads (at .cta
    // unless the instruction names a scope), so a completed phase orders the arrivals' writes.
    op.read = op.write = op.strong = op.rmw = true;
    op.scope = in.scope == Scope::none ? Scope::cta : in.scope;
    op.acquire = in.text.find("wait") != std::string_view::npos;
    if (const mm::Finding* finding = races->access(s.warp.agent, address, bytes, op)) s.machine.report_race(*finding, lane);
    return;
  }
  const bool atomic = access == Access::atomic && is_atomic_op(in);
  op.write = access != Access::read;
  // An atomic that returns the old value reads; red and multimem.red do not (never an acquire).
  op.read = access == Access::read || (atomic && in.ops[0].kind != Operand::Kind::addr);
  op.strong = atomic || (in.sem != Sem::weak && !(in.mods & kNc));
  op.rmw = access == Access::atomic;
  op.scope = op.strong ? mm::resolved_scope(in.sem, in.scope, atomic) : Scope::none;
  op.acquire = op.read && (in.sem == Sem::acquire || in.sem == Sem::acq_rel);
  op.multicast = multicast;
  if (const mm::Finding* finding = races->access(s.warp.agent, address, bytes, op))
    s.machine.report_race(*finding, lane);
}

void race_release(ExecState& s, const Instr& in) {
  mm::RaceDetector* races = s.machine.races();
  if (!races) return;
  if (is_mbarrier_op(in)) {  // an arrival releases at .cta unless it names a scope
    races->release_op(s.warp.agent, in.scope == Scope::none ? Scope::cta : in.scope, &in);
    return;
  }
  if (in.sem != Sem::release && in.sem != Sem::acq_rel) return;
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
