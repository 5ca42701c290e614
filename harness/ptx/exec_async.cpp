// Asynchronous copies and memory barriers: cp.async (4, 8 or 16 bytes from global to shared, with
// src-size zero fill or ignore-src), commit_group, wait_group, wait_all, cp.async.mbarrier.arrive,
// and mbarrier init / inval / arrive / arrive_drop (with .expect_tx) / expect_tx / complete_tx /
// test_wait / try_wait (with .parity) / pending_count. A copy reads its source when issued and
// writes its destination only when its lane waits for it (or exits), so a kernel that reads shared
// memory before cp.async.wait_group sees the old bytes, as it may on a GPU. The bulk copies are in
// exec_async_bulk.cpp.
//
// An mbarrier's 8 bytes hold everything the PTX ISA says it tracks, so init and inval reset it all
// and a spinning waiter's parked watch on the word sees every change: pending arrivals (bits
// 0-19), the expected count (20-39), the tx-count (40-60, signed: a copy may complete its bytes
// before they are expected) and the phase (63). The ISA bounds each count by 2^20 - 1. A phase
// completes when its pending arrivals and its tx-count are both 0. The state token an arrive
// returns is the word before the arrival (its phase bit and pending count).
#include "harness/ptx/exec_async.h"

#include <cstring>

#include "harness/ptx/decode.h"
#include "harness/ptx/lane_values.h"

namespace pkb::ptx {
namespace {

enum AsyncOp : std::int32_t {
  kCopy,
  kCommit,
  kWaitGroup,
  kWaitAll,
  kCopyArrive,
  kInit,
  kInval,
  kArrive,
  kArriveDrop,
  kTestWait,
  kExpectTx,
  kCompleteTx,
  kPendingCount,
};
// Modifier bits of this family: .parity (test_wait / try_wait), .noinc (cp.async.mbarrier.arrive),
// .expect_tx (arrive / arrive_drop).
constexpr std::uint32_t kParity = kTrans;
constexpr std::uint32_t kNoInc = kNoFtz;
constexpr std::uint32_t kExpectTxMod = kWide;

constexpr std::uint64_t kPhaseBit = 1ull << 63;
constexpr std::uint64_t kCountMask = (1ull << 20) - 1;
constexpr std::int64_t kMaxTx = (1 << 20) - 1;

struct Mbarrier {
  std::uint32_t pending = 0, expected = 0;
  std::int64_t tx = 0;
  std::uint64_t phase = 0;  // 0 or kPhaseBit
};

Mbarrier unpack(const std::uint8_t* word) {
  std::uint64_t v;
  std::memcpy(&v, word, 8);
  Mbarrier b;
  b.pending = static_cast<std::uint32_t>(v & kCountMask);
  b.expected = static_cast<std::uint32_t>(v >> 20 & kCountMask);
  b.tx = static_cast<std::int64_t>(v << 3) >> 43;  // bits 40-60, sign-extended
  b.phase = v & kPhaseBit;
  return b;
}

// Completes the phase if it is done, checks the tx-count's range and stores the word.
void settle(ExecState& s, std::uint8_t* word, Mbarrier b, int lane) {
  if (b.tx > kMaxTx || b.tx < -kMaxTx)
    lane_fault(lane, Fault::Kind::memory,
               "an mbarrier's tx-count of " + std::to_string(b.tx) +
                   " is outside the PTX ISA's range of +-(2^20 - 1)");
  if (b.pending == 0 && b.tx == 0) {
    b.phase ^= kPhaseBit;
    b.pending = b.expected;
  }
  const std::uint64_t v = b.phase | (static_cast<std::uint64_t>(b.tx) & 0x1FFFFFull) << 40 |
                          static_cast<std::uint64_t>(b.expected) << 20 | b.pending;
  std::memcpy(word, &v, 8);
  s.machine.notify_write(reinterpret_cast<std::uint64_t>(word), 8);
}

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
      // The source needs cp-size alignment whatever src-size is (5 bytes of a 16-byte copy): its
      // first and last bytes are checked one by one when src-size is no access size of its own.
      const std::uint64_t from = operand_address(s, in.ops[1], lane);
      const bool power_of_two = (read & (read - 1)) == 0;
      if (!power_of_two && from % bytes != 0)
        translate(s, Space::global, from, bytes, lane, Access::read);  // faults: misaligned
      const std::uint8_t* src =
          translate(s, Space::global, from, power_of_two ? read : 1, lane, Access::read);
      if (!power_of_two) translate(s, Space::global, from + read - 1, 1, lane, Access::read);
      std::memcpy(copy.data, src, read);
    }
    s.warp.async_copies.push_back(copy);
  });
}

std::uint8_t* barrier_word(ExecState& s, const Instr& in, int k, int lane) {
  return mbarrier_object(s, in.space, operand_address(s, in.ops[k], lane), lane);
}

// An arrive-on of `count` (after an expect-tx of `tx` bytes); arrive_drop also lowers the expected
// count of the phases after this one.
void arrive_on(ExecState& s, std::uint8_t* word, std::uint32_t count, bool drop, std::uint32_t tx,
               int lane) {
  Mbarrier b = unpack(word);
  b.tx += tx;
  if (drop) b.expected = b.expected >= count ? b.expected - count : 0;
  b.pending = b.pending >= count ? b.pending - count : 0;
  settle(s, word, b, lane);
}

void async_op(ExecState& s, const Instr& in, std::uint32_t mask) {
  if (in.aux == kArrive || in.aux == kArriveDrop || in.aux == kCopyArrive) race_release(s, in);
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
      if (in.mods & kNoInc)  // .noinc: the arrival counts towards the phase
        each_lane(mask,
                  [&](int lane) { arrive_on(s, barrier_word(s, in, 0, lane), 1, false, 0, lane); });
      return;
    case kInit: {
      const Src count = source(s, in, 1);
      each_lane(mask, [&](int lane) {
        std::uint8_t* word = barrier_word(s, in, 0, lane);
        const std::uint64_t c = count[lane] & kCountMask;
        const std::uint64_t v = c << 20 | c;
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
      // arrive [.expect_tx] state, [addr] {, count | , txCount}: .expect_tx arrives once.
      const bool expect = in.mods & kExpectTxMod;
      const bool has_count = !expect && in.nops > 2;
      const Src third = in.nops > 2 ? source(s, in, 2) : source(s, in, 1);
      const bool has_state = in.ops[0].kind == Operand::Kind::reg;
      std::uint64_t* state = has_state ? dest(s, in, 0) : nullptr;
      each_lane(mask, [&](int lane) {
        std::uint8_t* word = barrier_word(s, in, 1, lane);
        std::uint64_t v;
        std::memcpy(&v, word, 8);
        if (state) state[lane] = v;
        arrive_on(s, word, has_count ? static_cast<std::uint32_t>(third[lane]) : 1,
                  in.aux == kArriveDrop, expect ? static_cast<std::uint32_t>(third[lane]) : 0,
                  lane);
      });
      return;
    }
    case kExpectTx:
    case kCompleteTx: {
      const Src count = source(s, in, 1);
      each_lane(mask, [&](int lane) {
        std::uint8_t* word = barrier_word(s, in, 0, lane);
        const auto bytes = static_cast<std::uint32_t>(count[lane]);
        if (in.aux == kCompleteTx) {
          mbarrier_complete_tx(s, word, bytes, lane);
        } else {
          Mbarrier b = unpack(word);
          b.tx += bytes;
          settle(s, word, b, lane);
        }
      });
      return;
    }
    case kPendingCount: {  // the pending count in the state token: the word before the arrival
      const Src token = source(s, in, 1);
      std::uint64_t* d = dest(s, in, 0);
      each_lane(mask, [&](int lane) { d[lane] = token[lane] & kCountMask; });
      return;
    }
    default: break;
  }
}

// test_wait / try_wait[.parity] p, [addr], state|parity: the phase the token names has completed.
void test_wait(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src token = source(s, in, 2);
  std::uint64_t* p = dest(s, in, 0);
  const bool parity = in.mods & kParity;
  std::uint64_t hash = 0;
  each_lane(mask, [&](int lane) {
    std::uint8_t* word = barrier_word(s, in, 1, lane);
    if (!s.block.bulk_copies.empty()) land_bulk_copies_on(s, word, lane);  // a wait sees them land
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
  const bool reduce = q.take("reduce");
  if (q.take("bulk")) return decode_bulk_copy(input, instr, reduce);
  if (reduce) {
    mark_unsupported(input, instr, "form");
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
    if (q.take("noinc")) instr.mods |= kNoInc;
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
  const int op = q.take_one({"init", "inval", "arrive", "arrive_drop", "test_wait", "try_wait",
                             "expect_tx", "complete_tx", "pending_count"});
  if ((op == 2 || op == 3) && q.take("expect_tx")) instr.mods |= kExpectTxMod;
  if (q.take("parity")) instr.mods |= kParity;
  q.take("noComplete");
  decode_sem(q, scope);
  instr.space = decode_space(q);
  q.take_types();
  if (op < 0) {
    mark_unsupported(input, instr, "form");
    return true;
  }
  static constexpr std::int32_t kOps[] = {kInit,       kInval,      kArrive,
                                          kArriveDrop, kTestWait,   kTestWait,
                                          kExpectTx,   kCompleteTx, kPendingCount};
  instr.aux = kOps[op];
  const Operand::Kind first = instr.nops > 0 ? instr.ops[0].kind : Operand::Kind::none;
  bool operands = true;
  switch (instr.aux) {
    case kArrive:
    case kArriveDrop:
      operands = (first == Operand::Kind::reg || first == Operand::Kind::sink) && instr.nops >= 2 &&
                 instr.ops[1].kind == Operand::Kind::addr && instr.nops <= 3 &&
                 (!(instr.mods & kExpectTxMod) || instr.nops == 3);
      break;
    case kExpectTx:
    case kCompleteTx: operands = instr.nops == 2 && first == Operand::Kind::addr; break;
    case kPendingCount: operands = instr.nops == 2 && first == Operand::Kind::reg; break;
    default: break;
  }
  if (!operands) {
    mark_unsupported(input, instr, "operands");
    return true;
  }
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

std::uint8_t* mbarrier_object(ExecState& s, Space space, std::uint64_t address, int lane) {
  return translate(s, space == Space::generic ? Space::generic : Space::shared, address, 8, lane,
                   Access::atomic);
}

void mbarrier_complete_tx(ExecState& s, std::uint8_t* word, std::uint32_t bytes, int lane) {
  Mbarrier b = unpack(word);
  b.tx -= bytes;
  settle(s, word, b, lane);
}

bool decode_async(DecodeInput& input, Instr& instr) {
  const std::string& base = input.q.base();
  if (base == "cp") return decode_cp_async(input, instr);
  if (base == "mbarrier") return decode_mbarrier(input, instr);
  return false;
}

}  // namespace pkb::ptx
