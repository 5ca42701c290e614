// multimem.ld_reduce, multimem.st and multimem.red on multicast addresses (NVSwitch multicast,
// which no emulated GPU offers): the address names one multicast object and an offset, and each
// instruction reaches that offset in every rank's copy. ld_reduce sums (min, max, and, or, xor)
// over the copies in rank order, in double for floats (.acc::f32 or not), rounded once; st writes
// every copy; red reduces into every copy. Scalar and .v2/.v4/.v8 forms of f32, f16(x2),
// bf16(x2), u32, s32, u64, s64, b32 and b64.
#include <cmath>
#include <cstring>

#include "harness/ptx/decode.h"
#include "harness/ptx/float_formats.h"
#include "harness/ptx/lane_values.h"

namespace pkb::ptx {
namespace {

enum Op : std::int32_t { kAdd, kMin, kMax, kAnd, kOr, kXor };
enum Kind : std::int32_t { kLoadReduce = 0, kStore = 100, kReduce = 200 };

// The host address of every rank's copy of [address, address + bytes).
std::vector<std::uint8_t*> copies(ExecState& s, std::uint64_t address, std::uint32_t bytes, int lane) {
  if ((address & kTagMask) != kMulticastTag)
    lane_fault(lane, Fault::Kind::memory,
               "multimem on an address that is not a multicast address (pass \"multicast(NAME)\" in the plan)");
  const std::uint64_t rest = address & ~kTagMask;
  const auto object = static_cast<int>(rest >> kMulticastObjectShift);
  const std::uint64_t offset = rest & ((1ull << kMulticastObjectShift) - 1);
  MemoryMap& memory = s.machine.memory();
  if (object >= memory.multicast_objects() || offset + bytes > memory.multicast_bytes(object))
    lane_fault(lane, Fault::Kind::memory,
               "out-of-bounds multimem access of " + std::to_string(bytes) + " bytes at offset " +
                   std::to_string(offset) + " of a multicast buffer of " +
                   std::to_string(object < memory.multicast_objects() ? memory.multicast_bytes(object) : 0) + " bytes");
  if (bytes > 1 && offset % (bytes > 16 ? 16 : bytes) != 0)
    lane_fault(lane, Fault::Kind::memory, "misaligned multimem access at offset " + std::to_string(offset));
  std::vector<std::uint8_t*> out;
  for (std::uint64_t base : memory.multicast_addresses(object)) {
    const std::uint64_t at = base + offset;
    if (memory.any_call_ended())
      if (const Region* region = memory.find(at, bytes); region && memory.ended_for(*region, s.launch.rank))
        after_call(lane, Access::write, bytes, *region, s.launch.rank);
    out.push_back(reinterpret_cast<std::uint8_t*>(at));
  }
  return out;
}

// Elements of `type` in a 32- or 64-bit register word: bf16x2 and f16x2 hold two.
int lanes_per_word(Type type) { return type == Type::bf16x2 || type == Type::f16x2 ? 2 : 1; }
Type element_type(Type type) {
  return type == Type::bf16x2 ? Type::bf16 : type == Type::f16x2 ? Type::f16 : type;
}

double read_float(Type type, const std::uint8_t* p) {
  if (type == Type::f32) {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  if (type == Type::f64) {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  std::uint16_t bits;
  std::memcpy(&bits, p, 2);
  return half_to_double(type, bits);
}

void write_float(Type type, std::uint8_t* p, double value) {
  if (type == Type::f32) {
    const float v = static_cast<float>(value);
    std::memcpy(p, &v, 4);
  } else if (type == Type::f64) {
    std::memcpy(p, &value, 8);
  } else {
    const std::uint16_t bits = double_to_half(type, value, Round::rn);
    std::memcpy(p, &bits, 2);
  }
}

double combine_float(Op op, double a, double b) {
  switch (op) {
    case kMin: return std::fmin(a, b);
    case kMax: return std::fmax(a, b);
    default: return a + b;
  }
}

std::uint64_t combine_int(Op op, Type type, std::uint64_t a, std::uint64_t b) {
  const int bits = 8 * type_bytes(type);
  const std::uint64_t keep = bits == 64 ? ~0ull : (1ull << bits) - 1;
  auto as_signed = [&](std::uint64_t v) {
    return bits == 64 ? static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v << (64 - bits)) >> (64 - bits);
  };
  switch (op) {
    case kAdd: return (a + b) & keep;
    case kMin: return is_signed(type) ? (as_signed(a) < as_signed(b) ? a : b) : (a < b ? a : b);
    case kMax: return is_signed(type) ? (as_signed(a) > as_signed(b) ? a : b) : (a > b ? a : b);
    case kAnd: return a & b;
    case kOr: return a | b;
    case kXor: return a ^ b;
  }
  return a;
}

void multimem(ExecState& s, const Instr& in, std::uint32_t mask) {
  const int kind = in.aux / 100 * 100;
  const auto op = static_cast<Op>(in.aux % 100);
  const Type element = element_type(in.type);
  const int element_bytes = type_bytes(element);
  const int per_word = lanes_per_word(in.type);
  const int word_bytes = element_bytes * per_word;
  const auto total = static_cast<std::uint32_t>(word_bytes * in.vec);
  const bool floating = is_float(element);
  const Operand& addr = in.ops[kind == kLoadReduce ? 1 : 0];
  const Operand& data = in.ops[kind == kLoadReduce ? 0 : 1];
  const auto& vec_regs = s.launch.program->vec_regs;
  auto word_reg = [&](int w) {
    return data.kind == Operand::Kind::vec ? vec_regs[static_cast<std::size_t>(data.reg + w)] : data.reg;
  };
  race_release(s, in);
  const Access access = kind == kLoadReduce ? Access::read : kind == kStore ? Access::write : Access::atomic;
  each_lane(mask, [&](int lane) {
    const std::vector<std::uint8_t*> ranks = copies(s, operand_address(s, addr, lane), total, lane);
    if (s.machine.races())
      for (const std::uint8_t* copy : ranks) race_access(s, copy, total, lane, access, true);
    for (int w = 0; w < in.vec; ++w) {
      const int r = word_reg(w);
      std::uint64_t* slot = r >= 0 ? s.regs + static_cast<std::ptrdiff_t>(r) * kWarpLanes + lane : nullptr;
      std::uint64_t word = kind == kLoadReduce ? 0 : (slot ? *slot : 0);
      for (int e = 0; e < per_word; ++e) {
        const int at = w * word_bytes + e * element_bytes;
        std::uint8_t value[8] = {};
        std::memcpy(value, reinterpret_cast<std::uint8_t*>(&word) + e * element_bytes, static_cast<std::size_t>(element_bytes));
        if (kind == kLoadReduce) {
          if (floating) {
            double acc = read_float(element, ranks[0] + at);
            for (std::size_t k = 1; k < ranks.size(); ++k) acc = combine_float(op, acc, read_float(element, ranks[k] + at));
            write_float(element, value, acc);
          } else {
            std::uint64_t acc = 0;
            std::memcpy(&acc, ranks[0] + at, static_cast<std::size_t>(element_bytes));
            for (std::size_t k = 1; k < ranks.size(); ++k) {
              std::uint64_t next = 0;
              std::memcpy(&next, ranks[k] + at, static_cast<std::size_t>(element_bytes));
              acc = combine_int(op, element, acc, next);
            }
            std::memcpy(value, &acc, static_cast<std::size_t>(element_bytes));
          }
          std::memcpy(reinterpret_cast<std::uint8_t*>(&word) + e * element_bytes, value, static_cast<std::size_t>(element_bytes));
          continue;
        }
        for (std::uint8_t* copy : ranks) {
          if (kind == kStore) {
            std::memcpy(copy + at, value, static_cast<std::size_t>(element_bytes));
          } else if (floating) {
            double b = 0;
            if (element == Type::f32) {
              float f;
              std::memcpy(&f, value, 4);
              b = f;
            } else if (element == Type::f64) {
              std::memcpy(&b, value, 8);
            } else {
              std::uint16_t bits;
              std::memcpy(&bits, value, 2);
              b = half_to_double(element, bits);
            }
            write_float(element, copy + at, combine_float(op, read_float(element, copy + at), b));
          } else {
            std::uint64_t old = 0, b = 0;
            std::memcpy(&old, copy + at, static_cast<std::size_t>(element_bytes));
            std::memcpy(&b, value, static_cast<std::size_t>(element_bytes));
            const std::uint64_t next = combine_int(op, element, old, b);
            std::memcpy(copy + at, &next, static_cast<std::size_t>(element_bytes));
          }
        }
      }
      if (kind == kLoadReduce && slot) *slot = word;
    }
    if (kind != kLoadReduce)
      for (std::uint8_t* copy : ranks) s.machine.notify_write(reinterpret_cast<std::uint64_t>(copy), total);
  });
}

}  // namespace

bool decode_multimem(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  if (q.base() != "multimem") return false;
  int kind = -1;
  if (q.take("ld_reduce")) kind = kLoadReduce;
  else if (q.take("st")) kind = kStore;
  else if (q.take("red")) kind = kReduce;
  Scope scope;
  instr.sem = decode_sem(q, scope);
  instr.scope = scope;
  q.take("global");
  q.take("acc::f32");
  q.take("acc::f16");
  const int op = kind == kStore ? 0 : q.take_one({"add", "min", "max", "and", "or", "xor"});
  const int vector = q.take_one({"v2", "v4", "v8"});
  instr.vec = static_cast<std::uint8_t>(vector < 0 ? 1 : 2 << vector);
  const std::vector<Type> types = q.take_types();
  if (kind < 0 || op < 0 || types.size() != 1 || instr.nops != 2) {
    mark_unsupported(input, instr, "form");
    return true;
  }
  instr.type = types[0];
  instr.aux = kind + op;
  instr.handler = multimem;
  return true;
}

}  // namespace pkb::ptx
