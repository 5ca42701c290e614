// Bulk copies (the non-tensor cp.async.bulk forms) and bulk reductions to global memory
// (cp.reduce.async.bulk), with cp.async.bulk.commit_group, wait_group[.read] and
// cp.async.bulk.prefetch (a hint). Their timing is deterministic but as late as the PTX ISA
// allows, so a kernel that skips a wait sees stale bytes:
// - global to shared (.mbarrier::complete_tx::bytes): the source is read when the copy is issued;
//   shared memory is written, and the bytes completed on the mbarrier, only when a thread of the
//   block waits on that mbarrier (test_wait / try_wait) or the block ends. Issuing one wakes the
//   threads parked on the mbarrier, so they wait again and see it land.
// - shared to global (.bulk_group): the source is read at the issuing thread's
//   wait_group.read (or wait_group), the destination written at its wait_group, both at the
//   block's end at the latest.
// Both ends are checked (bounds, 16-byte alignment, a size that is a multiple of 16) when the copy
// is issued. The .tensor forms need a CUtensorMap, .multicast::cluster and the shared::cluster
// destinations need a cluster's other CTAs: the simulated node runs none of them.
#include <cstdio>
#include <cstring>

#include "harness/ptx/exec_async.h"
#include "harness/ptx/lane_flow.h"
#include "harness/ptx/lane_values.h"

namespace pkb::ptx {
namespace {

enum BulkOp : std::int32_t { kToShared, kToGlobal, kCommit, kWait, kWaitRead };

void nothing(ExecState&, const Instr&, std::uint32_t) {}

std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

// The size and both addresses of a bulk copy, as the PTX ISA requires them.
void check_bulk(int lane, std::uint32_t bytes, std::uint64_t dst, std::uint64_t src) {
  if (bytes % 16 != 0)
    lane_fault(lane, Fault::Kind::memory,
               "a bulk copy of " + std::to_string(bytes) + " bytes (a multiple of 16 is required)");
  for (const std::uint64_t address : {dst, src})
    if (address % 16 != 0)
      lane_fault(
          lane, Fault::Kind::memory,
          "a bulk copy at misaligned address " + hex(address) + " (16-byte alignment is required)");
}

// A lane's [dst], [src], size operands of a bulk copy, checked.
struct BulkOperands {
  std::uint32_t bytes = 0;
  std::uint64_t to = 0, from = 0;
};

BulkOperands bulk_operands(ExecState& s, const Instr& in, const Src& size, int lane) {
  BulkOperands o;
  o.bytes = static_cast<std::uint32_t>(size[lane]);
  o.to = operand_address(s, in.ops[0], lane);
  o.from = operand_address(s, in.ops[1], lane);
  check_bulk(lane, o.bytes, o.to, o.from);
  return o;
}

void read_source(BulkCopy& copy) {
  if (copy.read) return;
  copy.data.assign(copy.src, copy.src + copy.bytes);
  copy.read = true;
}

// The copy's bytes reach its destination (a reduction combines them element by element).
void land(ExecState& s, BulkCopy& copy) {
  read_source(copy);
  if (copy.bytes == 0) return;
  if (copy.reduce < 0) {
    std::memcpy(copy.dst, copy.data.data(), copy.bytes);
  } else {
    const int size = type_bytes(copy.type);
    for (std::uint32_t at = 0; at < copy.bytes; at += static_cast<std::uint32_t>(size)) {
      std::uint64_t old = 0, operand = 0;
      std::memcpy(&old, copy.dst + at, static_cast<std::size_t>(size));
      std::memcpy(&operand, copy.data.data() + at, static_cast<std::size_t>(size));
      const std::uint64_t next = reduce_element(copy.type, static_cast<BulkReduce>(copy.reduce),
                                                old, operand, copy.type == Type::f32);
      std::memcpy(copy.dst + at, &next, static_cast<std::size_t>(size));
    }
  }
  s.machine.notify_write(reinterpret_cast<std::uint64_t>(copy.dst), copy.bytes);
}

// cp.async.bulk.shared::cta|cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]
void copy_to_shared(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src size = source(s, in, 2);
  each_lane(mask, [&](int lane) {
    const auto [bytes, to, from] = bulk_operands(s, in, size, lane);
    BulkCopy copy;
    copy.mbarrier = mbarrier_object(s, Space::shared, operand_address(s, in.ops[3], lane), lane);
    copy.bytes = bytes;
    copy.read = true;
    if (bytes > 0) {
      copy.dst = translate(s, Space::shared, to, bytes, lane, Access::write);
      const std::uint8_t* src = translate(s, Space::global, from, bytes, lane, Access::read);
      copy.data.assign(src, src + bytes);
    }
    std::uint8_t* word = copy.mbarrier;
    s.block.bulk_copies.push_back(std::move(copy));
    s.machine.notify_write(reinterpret_cast<std::uint64_t>(word), 8);  // parked waiters wait again
  });
}

// cp{.reduce}.async.bulk.global.shared::cta.bulk_group[.op.type] [dst], [src], size
void copy_to_global(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src size = source(s, in, 2);
  each_lane(mask, [&](int lane) {
    const auto [bytes, to, from] = bulk_operands(s, in, size, lane);
    BulkCopy copy;
    copy.bytes = bytes;
    copy.warp = s.warp.index;
    copy.lane = lane;
    copy.group = s.warp.bulk_commits[static_cast<std::size_t>(lane)];
    copy.reduce = in.aux == kToGlobal ? -1 : in.aux - 100;
    copy.type = in.type;
    if (bytes > 0) {
      copy.dst = translate(s, Space::global, to, bytes, lane,
                           copy.reduce < 0 ? Access::write : Access::atomic);
      copy.src = translate(s, Space::shared, from, bytes, lane, Access::read);
    }
    s.block.bulk_copies.push_back(std::move(copy));
  });
}

// commit_group, and wait_group[.read] N: the lanes' groups older than their N most recent ones
// are read (.read) or land.
void bulk_group(ExecState& s, const Instr& in, std::uint32_t mask) {
  if (in.aux == kCommit) {
    each_lane(mask, [&](int lane) { ++s.warp.bulk_commits[static_cast<std::size_t>(lane)]; });
    return;
  }
  const auto keep = static_cast<std::uint32_t>(in.ops[0].imm);
  auto& copies = s.block.bulk_copies;
  for (std::size_t i = 0; i < copies.size();) {
    BulkCopy& copy = copies[i];
    const std::uint32_t commits = s.warp.bulk_commits[static_cast<std::size_t>(copy.lane)];
    const bool waited = !copy.mbarrier && copy.warp == s.warp.index && (mask >> copy.lane & 1) &&
                        copy.group < commits && commits - copy.group > keep;
    if (!waited) {
      ++i;
    } else if (in.aux == kWaitRead) {
      read_source(copy);
      ++i;
    } else {
      land(s, copy);
      copies.erase(copies.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
}

Space take_space_named(Qualifiers& q, std::string_view text, std::size_t at) {
  for (const auto& [name, space] : {std::pair<std::string_view, Space>{"global", Space::global},
                                    {"shared::cta", Space::shared},
                                    {"shared::cluster", Space::shared_cluster}})
    if (text.compare(at, name.size() + 1, std::string(name) + ".") == 0 && q.take(name))
      return space;
  return Space::generic;
}

}  // namespace

void land_bulk_copies_on(ExecState& s, const std::uint8_t* word, int lane) {
  auto& copies = s.block.bulk_copies;
  for (std::size_t i = 0; i < copies.size();) {
    if (copies[i].mbarrier != word) {
      ++i;
      continue;
    }
    BulkCopy copy = std::move(copies[i]);
    copies.erase(copies.begin() + static_cast<std::ptrdiff_t>(i));
    land(s, copy);
    mbarrier_complete_tx(s, copy.mbarrier, copy.bytes, lane);
  }
}

void finish_bulk_copies(ExecState& s) {
  auto copies = std::move(s.block.bulk_copies);
  s.block.bulk_copies.clear();
  for (BulkCopy& copy : copies) {
    land(s, copy);
    if (copy.mbarrier) mbarrier_complete_tx(s, copy.mbarrier, copy.bytes, 0);
  }
}

bool decode_bulk_copy(DecodeInput& input, Instr& instr, bool reduce) {
  Qualifiers& q = input.q;
  const auto unsupported = [&](const std::string& why) {
    mark_unsupported(input, instr, why);
    return true;
  };
  if (!reduce && (q.take("commit_group") || q.take("wait_group"))) {
    const bool commit = instr.text.find("commit_group") != std::string_view::npos;
    instr.aux = commit ? kCommit : q.take("read") ? kWaitRead : kWait;
    if (commit ? instr.nops != 0 : instr.nops != 1 || instr.ops[0].kind != Operand::Kind::imm)
      return unsupported("operands");
    instr.handler = bulk_group;
    return true;
  }
  if (q.take("tensor"))
    return unsupported(
        "tensor copies need a CUtensorMap (cuTensorMapEncode), which the simulated node does not "
        "model");
  if (!reduce && q.take("prefetch")) {  // cp.async.bulk.prefetch.L2.global [src], size: a hint
    q.take("L2");
    q.take("global");
    instr.handler = nothing;
    return true;
  }
  if (q.take("multicast::cluster"))
    return unsupported("multicast to the CTAs of a cluster is not simulated");
  // The destination space comes first: cp.async.bulk.<dst>.<src>.
  const std::string_view text = instr.text;
  const std::size_t bulk = text.find("bulk.");
  const std::size_t dst_at = bulk == std::string_view::npos ? text.size() : bulk + 5;
  const Space dst = take_space_named(q, text, dst_at);
  const std::size_t src_at = text.find('.', dst_at);
  const Space src =
      src_at == std::string_view::npos ? Space::generic : take_space_named(q, text, src_at + 1);
  if (dst == Space::global && src == Space::shared) {
    if (!q.take("bulk_group")) return unsupported("completion mechanism");
    instr.aux = kToGlobal;
    if (reduce) {
      const int op = q.take_one({"add", "min", "max", "and", "or", "xor", "inc", "dec"});
      q.take("noftz");
      const std::vector<Type> types = q.take_types();
      const auto element = [](Type t) {
        switch (t) {
          case Type::f16: case Type::bf16: case Type::f32: case Type::f64: case Type::b32:
          case Type::u32: case Type::s32: case Type::b64: case Type::u64: case Type::s64: return true;
          default: return false;
        }
      };
      if (op < 0 || types.size() != 1 || !element(types[0])) return unsupported("reduction");
      instr.type = types[0];
      instr.aux = 100 + op;
    }
    if (instr.nops != 3 || instr.ops[0].kind != Operand::Kind::addr ||
        instr.ops[1].kind != Operand::Kind::addr)
      return unsupported("operands");
    instr.handler = copy_to_global;
    return true;
  }
  if (!reduce && src == Space::global && (dst == Space::shared || dst == Space::shared_cluster)) {
    if (!q.take("mbarrier::complete_tx::bytes")) return unsupported("completion mechanism");
    if (instr.nops != 4 || instr.ops[0].kind != Operand::Kind::addr ||
        instr.ops[1].kind != Operand::Kind::addr || instr.ops[3].kind != Operand::Kind::addr)
      return unsupported("operands");
    instr.aux = kToShared;
    instr.handler = copy_to_shared;
    return true;
  }
  if (dst == Space::shared_cluster && src == Space::shared)
    return unsupported("copies to another CTA of the cluster are not simulated");
  return unsupported("form");
}

}  // namespace pkb::ptx
