// Warp-synchronous instructions: shfl.sync, vote.sync, match.sync, redux.sync, elect.sync,
// bar.warp.sync (rendezvous), and activemask (the lanes converged with the caller). As the PTX ISA
// says, a .sync instruction waits for the non-exited lanes its member mask names, which may arrive
// from different pcs; a full mask after some lanes returned is legal. The executing lane must be
// in its own mask (else a fault), a shuffle that reads a lane that exited or takes no part gets
// an undefined value (here NaN in every float format, with the read noted for the verdict), and a
// named lane that can never arrive is a deadlock.
#include "harness/ptx/lane_bits.h"
#include <sstream>

#include "harness/ptx/decode.h"
#include "harness/ptx/lane_flow.h"
#include "harness/ptx/lane_values.h"
#include "harness/ptx/warp_collective.h"

namespace pkb::ptx {
namespace {

enum WarpOp : std::int32_t {
  kShflUp = 0, kShflDown, kShflBfly, kShflIdx,
  kVoteAll = 10, kVoteAny, kVoteUni, kVoteBallot,
  kMatchAny = 20, kMatchAll,
  kReduxAdd = 30, kReduxMin, kReduxMax, kReduxAnd, kReduxOr, kReduxXor,
  kWarpSync = 40,
  kElect = 50,
};
static_assert(kElect < kWarpMatrixOps, "warp-sync op codes must stay below the matrix ones");

// What a shuffle returns for a lane that cannot be read: NaN as f32, as both bf16 halves and as
// both f16 halves, so any float built on it is NaN.
constexpr std::uint64_t kUndefinedValue = 0x7FFF7FFFu;

std::string mask_text(std::uint32_t mask) {
  std::ostringstream out;
  out << "0x" << std::hex << mask;
  return out.str();
}

std::string lanes_text(std::uint32_t mask) {
  std::string out;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    if (!(mask >> lane & 1)) continue;
    int last = lane;
    while (last + 1 < kWarpLanes && (mask >> (last + 1) & 1)) ++last;
    if (!out.empty()) out += ",";
    out += last == lane ? std::to_string(lane) : std::to_string(lane) + "-" + std::to_string(last);
    lane = last;
  }
  return (lane_count(mask) == 1 ? "lane " : "lanes ") + out;
}

const Instr& instr_of(const Warp& warp, const LaneGroup& group) {
  return warp.block->launch->program->code[static_cast<std::size_t>(group.pc)];
}

bool same_kind(const Instr& a, const Instr& b) { return a.aux == b.aux && a.type == b.type; }

// The lanes of every group waiting with member mask `mm` at an instruction of `kind`.
std::uint32_t arrived_lanes(const Warp& warp, std::uint32_t mm, const Instr& kind) {
  std::uint32_t arrived = 0;
  for (const auto& group : warp.groups)
    if (group.mask != 0 && group.state == GroupState::warp_sync && group.wait_mask == mm &&
        same_kind(instr_of(warp, group), kind))
      arrived |= group.mask;
  return arrived;
}

void shuffle(Lanes& lanes, Machine& machine, const Warp& warp) {
  std::uint64_t result[kWarpLanes];
  bool valid[kWarpLanes];
  each_lane(lanes.members, [&](int lane) {
    const int at = lanes.pair(lane) ? 2 : 1;
    const auto b = static_cast<std::uint32_t>(lanes.read(lane, at + 1));
    const auto c = static_cast<std::uint32_t>(lanes.read(lane, at + 2));
    const int bval = static_cast<int>(b & 0x1F), cval = static_cast<int>(c & 0x1F);
    const int segmask = static_cast<int>((c >> 8) & 0x1F);
    const int max_lane = (lane & segmask) | (cval & ~segmask);
    const int min_lane = lane & segmask;
    int j = lane;
    bool pval = false;
    switch (lanes.instr[lane]->aux) {
      case kShflUp: j = lane - bval; pval = j >= max_lane; break;
      case kShflDown: j = lane + bval; pval = j <= max_lane; break;
      case kShflBfly: j = lane ^ bval; pval = j <= max_lane; break;
      default: j = min_lane | (bval & ~segmask); pval = j <= max_lane; break;
    }
    if (!pval) j = lane;
    valid[lane] = pval;
    if (lanes.members >> j & 1) {
      result[lane] = lanes.read(j, lanes.pair(j) ? 2 : 1);
    } else {
      result[lane] = kUndefinedValue;
      const bool exited = (warp.exited >> j) & 1;
      if (machine.undefined_note().empty())  // only the first is kept: build the text once
        machine.note_undefined("`" + std::string(lanes.instr[lane]->text) + "` read lane " + std::to_string(j) +
                             (exited ? ", which had exited" : ", which takes no part in it (not in the member mask)") +
                             ": the value is undefined (the simulated node returns NaN); " +
                             machine.where(warp, lane, lanes.instr[lane]));
    }
  });
  each_lane(lanes.members, [&](int lane) {
    lanes.write(lane, 0, result[lane]);
    if (lanes.pair(lane)) lanes.write(lane, 1, valid[lane] ? 1 : 0);
  });
}

void vote(Lanes& lanes) {
  std::uint32_t ballot = 0;
  each_lane(lanes.members, [&](int lane) {
    if (lanes.read_pred(lane, 1)) ballot |= 1u << lane;
  });
  const bool all = ballot == lanes.members, any = ballot != 0;
  each_lane(lanes.members, [&](int lane) {
    switch (lanes.instr[lane]->aux) {
      case kVoteAll: lanes.write(lane, 0, all); break;
      case kVoteAny: lanes.write(lane, 0, any); break;
      case kVoteUni: lanes.write(lane, 0, all || !any); break;
      default: lanes.write(lane, 0, ballot); break;
    }
  });
}

void match(Lanes& lanes) {
  const bool wide = lanes.instr[first_lane(lanes.members)]->type == Type::b64;
  std::uint64_t value[kWarpLanes];
  each_lane(lanes.members, [&](int lane) {
    const int at = lanes.pair(lane) ? 2 : 1;
    value[lane] = lanes.read(lane, at);
    if (!wide) value[lane] &= 0xFFFFFFFFu;
  });
  each_lane(lanes.members, [&](int lane) {
    std::uint32_t equal = 0;
    each_lane(lanes.members, [&](int other) {
      if (value[other] == value[lane]) equal |= 1u << other;
    });
    if (lanes.instr[lane]->aux == kMatchAny) {
      lanes.write(lane, 0, equal);
    } else {
      const bool all = equal == lanes.members;
      lanes.write(lane, 0, all ? lanes.members : 0);
      if (lanes.pair(lane)) lanes.write(lane, 1, all);
    }
  });
}

void redux(Lanes& lanes) {
  const int first = first_lane(lanes.members);
  const Instr& in = *lanes.instr[first];
  const bool sign = in.type == Type::s32;
  std::uint32_t acc = static_cast<std::uint32_t>(lanes.read(first, 1));
  each_lane(lanes.members & ~(1u << first), [&](int lane) {
    const auto v = static_cast<std::uint32_t>(lanes.read(lane, 1));
    switch (in.aux) {
      case kReduxAdd: acc += v; break;
      case kReduxMin:
        acc = sign ? static_cast<std::uint32_t>(std::min(static_cast<std::int32_t>(acc), static_cast<std::int32_t>(v)))
                   : std::min(acc, v);
        break;
      case kReduxMax:
        acc = sign ? static_cast<std::uint32_t>(std::max(static_cast<std::int32_t>(acc), static_cast<std::int32_t>(v)))
                   : std::max(acc, v);
        break;
      case kReduxAnd: acc &= v; break;
      case kReduxOr: acc |= v; break;
      default: acc ^= v; break;
    }
  });
  each_lane(lanes.members, [&](int lane) { lanes.write(lane, 0, acc); });
}

void elect(Lanes& lanes) {
  const int leader = first_lane(lanes.members);
  each_lane(lanes.members, [&](int lane) {
    lanes.write(lane, 0, static_cast<std::uint64_t>(leader));
    if (lanes.pair(lane)) lanes.write(lane, 1, lane == leader);
  });
}

void run_collective(Lanes& lanes, Machine& machine, const Warp& warp, std::int32_t op) {
  if (op < 10) shuffle(lanes, machine, warp);
  else if (op < 20) vote(lanes);
  else if (op < 30) match(lanes);
  else if (op < 40) redux(lanes);
  else if (op == kElect) elect(lanes);
  else if (op >= kWarpMatrixOps) matrix_collective(lanes);
}

// Completes the rendezvous of member mask `mm` and kind `kind` when every live lane it names has
// arrived; `leader` (if any) absorbs the other groups.
bool try_complete(Machine& machine, Warp& warp, std::uint32_t mm, const Instr& kind, LaneGroup* leader) {
  const std::uint32_t needed = mm & warp.live();
  const std::uint32_t arrived = arrived_lanes(warp, mm, kind);
  if ((needed & ~arrived) != 0) return false;
  ExecState s(machine, warp);
  Lanes lanes{s};
  lanes.members = arrived;
  for (auto& group : warp.groups) {
    if (group.mask == 0 || group.state != GroupState::warp_sync || group.wait_mask != mm ||
        !same_kind(instr_of(warp, group), kind))
      continue;
    each_lane(group.mask, [&](int lane) {
      lanes.instr[lane] = &instr_of(warp, group);
      lanes.regs[lane] = warp.regs.get() + static_cast<std::ptrdiff_t>(group.reg_frame) * kWarpLanes;
    });
  }
  run_collective(lanes, machine, warp, kind.aux);
  for (auto& group : warp.groups)
    if (group.mask != 0 && group.state == GroupState::warp_sync && (group.mask & arrived) == group.mask) {
      group.state = GroupState::ready;
      ++group.pc;
    }
  if (leader) merge_at_pc(warp, *leader);
  for (auto& group : warp.groups)
    if (group.mask != 0) merge_at_pc(warp, group);
  machine.make_runnable(&warp);
  return true;
}

void activemask(ExecState& s, const Instr& in, std::uint32_t mask) {
  std::uint64_t* d = dest(s, in, 0);
  const std::uint32_t active = s.group->mask;
  each_lane(mask, [&](int lane) { d[lane] = active; });
}

void nothing(ExecState&, const Instr&, std::uint32_t) {}

}  // namespace

bool arrive_warp_sync(ExecState& s, LaneGroup& group, const Instr& in, std::uint32_t mask) {
  // mma, ldmatrix and stmatrix (.sync.aligned, no mask operand) take the whole warp.
  const bool whole_warp = in.aux >= kWarpMatrixOps;
  const Src mm_source = whole_warp ? Src{nullptr, 0} : source(s, in, in.nops - 1);
  const auto mm = whole_warp ? s.warp.lanes : static_cast<std::uint32_t>(mm_source[first_lane(mask)]);
  auto leaves_out = [&](std::uint32_t lanes, std::uint32_t member_mask) {
    if (lanes & ~member_mask)
      lane_fault(first_lane(lanes & ~member_mask), Fault::Kind::warp_sync,
                 "`" + std::string(in.text) + "` with member mask " + mask_text(member_mask) +
                     ", which leaves out the lane executing it (undefined in the PTX ISA)");
  };
  // Lanes of this group may pass different masks (the two halves of a warp, each its own
  // 16-lane reduction): each set of lanes with one mask value is a rendezvous of its own, so
  // all but the first lane's set wait in groups split off here.
  std::vector<LaneGroup*> parts;
  if (!whole_warp) {
    std::uint32_t others = 0;
    each_lane(mask, [&](int lane) {
      if (static_cast<std::uint32_t>(mm_source[lane]) != mm) others |= 1u << lane;
    });
    while (others) {
      const auto value = static_cast<std::uint32_t>(mm_source[first_lane(others)]);
      std::uint32_t subset = 0;
      each_lane(others, [&](int lane) {
        if (static_cast<std::uint32_t>(mm_source[lane]) == value) subset |= 1u << lane;
      });
      leaves_out(subset, value);
      LaneGroup& part = split_group(s.warp, group, subset);
      part.state = GroupState::warp_sync;
      part.wait_mask = value;
      parts.push_back(&part);
      others &= ~subset;
    }
    mask = group.mask;
  }
  leaves_out(mask, mm);
  if (s.warp.group_count == 1 && (mm & s.warp.live()) == mask) {
    // The common case: the whole rendezvous is this one group at this one instruction.
    Lanes lanes{s};
    lanes.members = mask;
    each_lane(mask, [&](int lane) {
      lanes.instr[lane] = &in;
      lanes.regs[lane] = s.regs;
    });
    run_collective(lanes, s.machine, s.warp, in.aux);
    ++group.pc;
    return true;
  }
  group.state = GroupState::warp_sync;
  group.wait_mask = mm;
  try_complete(s.machine, s.warp, mm, in, &group);
  for (LaneGroup* part : parts)
    if (part->mask != 0 && part->state == GroupState::warp_sync)
      try_complete(s.machine, s.warp, part->wait_mask, in, nullptr);
  return group.state == GroupState::ready && group.mask != 0;
}

void recheck_warp_sync(Machine& machine, Warp& warp) {
  for (auto& group : warp.groups)
    if (group.mask != 0 && group.state == GroupState::warp_sync)
      try_complete(machine, warp, group.wait_mask, instr_of(warp, group), nullptr);
}

std::optional<Fault> warp_sync_deadlock(const Machine& machine, const Warp& warp) {
  for (const auto& group : warp.groups) {
    if (group.mask == 0 || group.state != GroupState::warp_sync) continue;
    const Instr& in = instr_of(warp, group);
    const std::uint32_t missing = group.wait_mask & warp.live() & ~arrived_lanes(warp, group.wait_mask, in);
    if (missing == 0) continue;
    std::string elsewhere;
    for (const auto& other : warp.groups)
      if (other.mask & missing) {
        const Instr& at = instr_of(warp, other);
        const std::string line = warp.block->launch->program->source_line(at);
        elsewhere = "`" + std::string(at.text) + "`" + (line.empty() ? "" : " (" + line + ")");
        break;
      }
    Fault fault;
    fault.kind = Fault::Kind::warp_sync;
    fault.rank = warp.block->launch->rank;
    fault.message = "deadlock: `" + std::string(in.text) + "` waits for " + lanes_text(missing) +
                    " of its member mask " + mask_text(group.wait_mask) + ", which never arrive (they wait at " +
                    elsewhere + "): " + machine.where(warp, first_lane(group.mask), &in);
    return fault;
  }
  return std::nullopt;
}

bool decode_warp(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  const std::string& base = q.base();
  if (base == "activemask") {
    q.take_types();
    instr.handler = activemask;
    return true;
  }
  int op = -1;
  if (base == "shfl") {
    const int mode = q.take_one({"up", "down", "bfly", "idx"});
    op = mode < 0 ? -1 : kShflUp + mode;
  } else if (base == "vote") {
    const int mode = q.take_one({"all", "any", "uni", "ballot"});
    op = mode < 0 ? -1 : kVoteAll + mode;
  } else if (base == "match") {
    const int mode = q.take_one({"any", "all"});
    op = mode < 0 ? -1 : kMatchAny + mode;
  } else if (base == "redux") {
    const int mode = q.take_one({"add", "min", "max", "and", "or", "xor"});
    op = mode < 0 ? -1 : kReduxAdd + mode;
  } else if (base == "bar" || base == "barrier") {
    if (!q.take("warp")) return false;
    op = kWarpSync;
  } else if (base == "elect") {
    op = kElect;
  } else {
    return false;
  }
  if (!q.take("sync")) {
    mark_unsupported(input, instr, "the form without .sync (not allowed from sm_70 on)");
    return true;
  }
  q.take("aligned");
  const std::vector<Type> types = q.take_types();
  instr.type = types.empty() ? Type::none : types[0];
  if (op < 0 || (base == "redux" && instr.type != Type::u32 && instr.type != Type::s32 && instr.type != Type::b32)) {
    mark_unsupported(input, instr, "form");
    return true;
  }
  instr.aux = op;
  instr.flow = Flow::warp_sync;
  instr.handler = nothing;
  return true;
}

}  // namespace pkb::ptx
