// Control flow and ordering: bra, brx.idx (through a .branchtargets table the parser resolves),
// call, ret, exit, trap, brkpt, nanosleep (the warp runner acts on their Flow), the block barriers
// (exec_barrier.cpp), membar and fence (orderings the memory model's detector uses, exec_race.cpp;
// no-ops in a sequentially consistent simulation), and the instructions that are no-ops here:
// griddepcontrol (launches on a stream already run in order), setmaxnreg, pmevent.
#include "harness/ptx/decode.h"
#include "harness/ptx/exec_state.h"

namespace pkb::ptx {
namespace {

void nothing(ExecState&, const Instr&, std::uint32_t) {}

// membar.{cta,gl,sys} is fence.sc at that scope; fence.{sc,acq_rel}.scope orders memory;
// fence.proxy.alias orders accesses through a multicast and a unicast address of one location.
// The other proxy fences (async, tensormap) and fence.mbarrier_init order nothing tracked here.
bool decode_fence(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  instr.handler = fence;
  instr.aux = 0;
  if (q.base() == "membar") {
    const int scope = q.take_one({"cta", "gl", "sys"});
    instr.scope = scope == 0 ? Scope::cta : scope == 2 ? Scope::sys : Scope::gpu;
    instr.sem = Sem::sc;
    instr.aux = kFenceOrder;
  } else if (q.take("proxy")) {
    if (q.take("alias")) instr.aux = kFenceAlias;
  } else {
    const int sem = q.take_one({"sc", "acq_rel"});
    const int scope = q.take_one({"cta", "cluster", "gpu", "sys"});
    if (sem >= 0) {
      instr.sem = sem == 0 ? Sem::sc : Sem::acq_rel;
      instr.scope = scope < 0 ? Scope::gpu : static_cast<Scope>(scope + 1);
      instr.aux = kFenceOrder;
    }
  }
  q = Qualifiers("");  // the rest (proxy kinds, sync_restrict, mbarrier_init) orders nothing here
  return true;
}

enum BarrierKind { kSync = 0, kArrive = 1, kRedPopc = 2, kRedAnd = 3, kRedOr = 4 };

bool decode_barrier(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  q.take("cta");
  q.take("aligned");
  if (q.take("sync")) {
    instr.aux = kSync;
  } else if (q.take("arrive")) {
    instr.aux = kArrive;
  } else if (q.take("red")) {
    const int op = q.take_one({"popc", "and", "or"});
    q.take_types();
    if (op < 0) {
      mark_unsupported(input, instr, "reduction");
      return true;
    }
    instr.aux = kRedPopc + op;
  } else if (q.empty()) {
    instr.aux = kSync;  // plain `bar 0` is bar.sync
  } else {
    mark_unsupported(input, instr, "barrier form");
    return true;
  }
  const int needed = instr.aux >= kRedPopc ? 3 : instr.aux == kArrive ? 2 : 1;
  if (instr.nops < needed || instr.nops > needed + 1) {
    mark_unsupported(input, instr, "operands");
    return true;
  }
  instr.flow = Flow::barrier;
  instr.handler = nothing;
  return true;
}

}  // namespace

bool decode_control(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  const std::string& base = q.base();
  if (base == "bra") {
    q.take("uni");
    if (instr.nops != 1 || instr.ops[0].kind != Operand::Kind::label) {
      mark_unsupported(input, instr, "an indirect branch");
      return true;
    }
    instr.flow = Flow::branch;
    return true;
  }
  if (base == "brx") {
    const bool indexed = q.take("idx");
    q.take("uni");
    if (!indexed || instr.nops != 2 || instr.ops[1].kind != Operand::Kind::label ||
        (instr.ops[0].kind != Operand::Kind::reg && instr.ops[0].kind != Operand::Kind::imm)) {
      mark_unsupported(input, instr, "form");
      return true;
    }
    instr.flow = Flow::branch_table;  // ops[1] becomes the table's index when the body ends
    return true;
  }
  if (base == "call") {
    q.take("uni");
    instr.flow = Flow::call;
    return true;
  }
  if (base == "ret" || base == "exit") {
    q.take("uni");
    instr.flow = base == "ret" ? Flow::ret : Flow::exit;
    return true;
  }
  if (base == "trap" || base == "brkpt") {
    instr.flow = base == "trap" ? Flow::trap : Flow::brkpt;
    return true;
  }
  if (base == "nanosleep") {
    q.take_types();
    instr.flow = Flow::nanosleep;
    return true;
  }
  if (base == "membar" || base == "fence") return decode_fence(input, instr);
  if (base == "griddepcontrol" || base == "setmaxnreg" || base == "pmevent") {
    q = Qualifiers("");  // every qualifier of these is about ordering or hints
    instr.handler = nothing;
    return true;
  }
  if (base == "bar" || base == "barrier") {
    if (q.take("warp")) {
      input.q = Qualifiers(instr.text);
      return false;  // bar.warp.sync: the warp family
    }
    if (q.take("cluster")) {
      mark_unsupported(input, instr, "cluster barriers");
      return true;
    }
    return decode_barrier(input, instr);
  }
  return false;
}

}  // namespace pkb::ptx
