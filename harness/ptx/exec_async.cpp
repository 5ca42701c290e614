// Asynchronous copies and memory barriers: cp.async (4, 8 or 16 bytes from global to shared, with
// src-size zero fill or ignore-src), commit_group, wait_group, wait_all, cp.async.mbarrier.arrive,
// and mbarrier init / inval / arrive / arrive_drop / test_wait / try_wait (with .parity). A copy
// reads its source when issued and writes its destination only when its lane waits for it (or
// exits), so a kernel that reads shared memory before cp.async.wait_group sees the old bytes, as
// it may on a GPU. An mbarrier's 8 bytes hold pending arrivals (bits 0-30), the expected count
// (32-62) and the phase (63); its state token is the phase at arrival. The bulk (TMA) forms end
// the sample as not executed.
#include <cstring>

#include "harness/ptx/decode.h"
#include "harness/ptx/lane_values.h"

namespace pkb::ptx {
namespace {

enum AsyncOp : std::int32_t {
  kCopy, kCommit, kWaitGroup, kWaitAll, kCopyArrive,
  kInit, kInval, kArrive, kArriveDrop, kTestWait,
};

constexpr std::uint64_t kPhaseBit = 1ull << 63;
constexpr std::uint64_t kCountMask = 0x7FFFFFFFull;

void complete_copies(ExecState& s, std::uint32_t mask, bool all, std::uint32_t keep_groups) {
  auto& copies = s.warp.async_copies;
  for (std::size_t i = 0; i < copies.size();) {
    const PendingCopy& copy = copies[i];
    const std::uint32_t commits = s.warp.async_commits[static_cast<std::size_t>(copy.lane)];
    const bool waited = (mask >> copy.lane & 1) &&
                        (all || (copy.group < commits && commits - copy.group > keep_groups));
    if (!waited) {
      ++i;
      continue;
    }
    std::memcpy(copy.dst, copy.data, copy.bytes);
    s.machine.notify_write(reinterpret_cast<std::uint64_t>(copy.dst), copy.bytes);
    copies.erase(copies.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

void copy_async(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src size = source(s, in, 2);
  const bool has_fourth = in.nops > 3;
  const bool ignore_src_form = has_fourth && in.aux == 1;  // the fourth operand is a predicate
  const Src fourth = has_fourth ? source(s, in, 3) : size;
  each_lane(mask, [&](int lane) {
    const auto bytes = static_cast<std::uint32_t>(size[lane]);
    if (bytes != 4 && bytes != 8 && bytes != 16)
      lane_fault(lane, Fault::Kind::memory, "cp.async of " + std::to_string(bytes) + " bytes (4, 8 or 16)");
    std::uint32_t read = bytes;
    if (has_fourth) {
      if (ignore_src_form) read = (fourth[lane] != 0) != in.ops[3].negate ? 0 : bytes;
      else read = static_cast<std::uint32_t>(fourth[lane]) < bytes ? static_cast<std::uint32_t>(fourth[lane]) : bytes;
    }
    PendingCopy copy;
    copy.lane = lane;
    copy.group = s.warp.async_commits[static_cast<std::size_t>(lane)];
    copy.bytes = static_cast<std::uint8_t>(bytes);
    copy.dst = translate(s, Space::shared, operand_address(s, in.ops[0], lane), bytes, lane, Access::write);
    if (read > 0) {
      const std::uint8_t* src = translate(s, Space::global, operand_address(s, in.ops[1], lane), read, lane, Access::read);
      std::memcpy(copy.data, src, read);
    }
    s.warp.async_copies.push_back(copy);
  });
}

std::uint8_t* barrier_word(ExecState& s, const Instr& in, int k, int lane) {
  return translate(s, in.space == Space::generic ? Space::generic : Space::shared, operand_address(s, in.ops[k], lane), 8,
                   lane, Access::atomic);
}

void arrive_on(ExecState& s, std::uint8_t* word, std::uint32_t count, bool drop) {
  std::uint64_t v;
  std::memcpy(&v, word, 8);
  std::uint64_t pending = v & kCountMask, expected = (v >> 32) & kCountMask, phase = v & kPhaseBit;
  if (drop) expected = expected >= count ? expected - count : 0;
  pending = pending >= count ? pending - count : 0;
  if (pending == 0) {
    phase ^= kPhaseBit;
    pending = expected;
  }
  v = phase | expected << 32 | pending;
  std::memcpy(word, &v, 8);
  s.machine.notify_write(reinterpret_cast<std::uint64_t>(word), 8);
}

void async_op(ExecState& s, const Instr& in, std::uint32_t mask) {
  switch (in.aux) {
    case kCommit:
      each_lane(mask, [&](int lane) { ++s.warp.async_commits[static_cast<std::size_t>(lane)]; });
      return;
    case kWaitGroup: {
      const Src n = source(s, in, 0);
      complete_copies(s, mask, false, static_cast<std::uint32_t>(n[first_lane(mask)]));
      return;
    }
    case kWaitAll: complete_copies(s, mask, true, 0); return;
    case kCopyArrive:
      complete_copies(s, mask, true, 0);
      if (in.mods & kNoFtz)  // .noinc: the arrival counts towards the phase
        each_lane(mask, [&](int lane) { arrive_on(s, barrier_word(s, in, 0, lane), 1, false); });
      return;
    case kInit: {
      const Src count = source(s, in, 1);
      each_lane(mask, [&](int lane) {
        std::uint8_t* word = barrier_word(s, in, 0, lane);
        const std::uint64_t c = count[lane] & kCountMask;
        const std::uint64_t v = c << 32 | c;
        std::memcpy(word, &v, 8);
        s.machine.notify_write(reinterpret_cast<std::uint64_t>(word), 8);
      });
      return;
    }
    case kInval:
      each_lane(mask, [&](int lane) {
        std::uint8_t* word = barrier_word(s, in, 0, lane);
        std::memset(word, 0, 8);
        s.machine.notify_write(reinterpret_cast<std::uint64_t>(word), 8);
      });
      return;
    case kArrive:
    case kArriveDrop: {
      const bool has_count = in.nops > 2;
      const Src count = has_count ? source(s, in, 2) : source(s, in, 1);
      const bool has_state = in.ops[0].kind == Operand::Kind::reg;
      std::uint64_t* state = has_state ? dest(s, in, 0) : nullptr;
      each_lane(mask, [&](int lane) {
        std::uint8_t* word = barrier_word(s, in, 1, lane);
        std::uint64_t v;
        std::memcpy(&v, word, 8);
        if (state) state[lane] = v & kPhaseBit;
        arrive_on(s, word, has_count ? static_cast<std::uint32_t>(count[lane]) : 1, in.aux == kArriveDrop);
      });
      return;
    }
    default: break;
  }
}

// test_wait / try_wait[.parity] p, [addr], state|parity: the phase the token names has completed.
void test_wait(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src token = source(s, in, 2);
  std::uint64_t* p = dest(s, in, 0);
  const bool parity = in.mods & kTrans;  // .parity
  std::uint64_t hash = 0;
  each_lane(mask, [&](int lane) {
    std::uint8_t* word = barrier_word(s, in, 1, lane);
    std::uint64_t v;
    std::memcpy(&v, word, 8);
    const std::uint64_t phase = v >> 63;
    const std::uint64_t waited = parity ? (token[lane] & 1) : (token[lane] >> 63);
    p[lane] = phase != waited ? 1 : 0;
    const auto host = reinterpret_cast<std::uint64_t>(word);
    hash = (hash * 0x100000001B3ull ^ host) * 0x100000001B3ull ^ v;
    s.loaded_words.push_back(host);
    s.loaded_words.push_back(host + 4);
  });
  s.load_hash = hash;
}

bool decode_cp_async(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  if (!q.take("async")) return false;
  if (q.take("bulk")) {
    mark_unsupported(input, instr, "bulk (TMA) copies are not simulated");
    return true;
  }
  if (q.take("commit_group")) instr.aux = kCommit;
  else if (q.take("wait_group")) instr.aux = kWaitGroup;
  else if (q.take("wait_all")) instr.aux = kWaitAll;
  else if (q.take("mbarrier")) {
    if (!q.take("arrive")) {
      mark_unsupported(input, instr, "form");
      return true;
    }
    if (q.take("noinc")) instr.mods |= kNoFtz;
    instr.space = decode_space(q);
    q.take_types();
    instr.aux = kCopyArrive;
  } else {
    q.take("ca");
    q.take("cg");
    q.drop_hints();
    q.take("L2::128B");
    q.take("L2::256B");
    const bool to_shared = q.take("shared") || q.take("shared::cta");
    const bool from_global = q.take("global");
    if (!to_shared || !from_global || instr.nops < 3) {
      mark_unsupported(input, instr, "form");
      return true;
    }
    instr.aux = 0;
    // cp.async [d], [s], size, p: a predicate fourth operand is ignore-src; an integer, src-size.
    if (instr.nops > 3 && instr.ops[3].kind == Operand::Kind::reg &&
        input.program.reg_types[static_cast<std::size_t>(instr.ops[3].reg)] == Type::pred)
      instr.aux = 1;
    instr.handler = copy_async;
    return true;
  }
  instr.handler = async_op;
  return true;
}

bool decode_mbarrier(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  Scope scope;
  decode_sem(q, scope);
  q.take("acq_rel");
  if (q.take("expect_tx") || q.take("complete_tx") || q.take("pending_count")) {
    mark_unsupported(input, instr, "transaction counts (TMA) and pending_count are not simulated");
    return true;
  }
  const int op = q.take_one({"init", "inval", "arrive", "arrive_drop", "test_wait", "try_wait"});
  if (q.take("parity")) instr.mods |= kTrans;
  q.take("noComplete");
  decode_sem(q, scope);
  instr.space = decode_space(q);
  q.take_types();
  if (op < 0) {
    mark_unsupported(input, instr, "form");
    return true;
  }
  static constexpr std::int32_t kOps[] = {kInit, kInval, kArrive, kArriveDrop, kTestWait, kTestWait};
  instr.aux = kOps[op];
  if (instr.aux == kTestWait) {
    instr.handler = test_wait;
    instr.flow = Flow::spin_load;  // a wait loop parks until the barrier word changes
  } else {
    instr.handler = async_op;
  }
  return true;
}

}  // namespace

/// The pending copies of lanes that exit land (their bytes reach shared memory before the block's
/// end, as the hardware completes them).
void complete_async_copies(ExecState& s, std::uint32_t lanes) { complete_copies(s, lanes, true, 0); }

bool decode_async(DecodeInput& input, Instr& instr) {
  const std::string& base = input.q.base();
  if (base == "cp") return decode_cp_async(input, instr);
  if (base == "mbarrier") return decode_mbarrier(input, instr);
  return false;
}

}  // namespace pkb::ptx
