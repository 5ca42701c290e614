// atom and red: add min max and or xor exch cas inc dec on integer types, add (min, max) on f32
// f64 f16 bf16 and their x2 forms, in global, shared or generic memory, lane by lane (each one is
// atomic: one host thread runs every lane). atom.add.f32 on global memory flushes subnormal
// inputs and results, on shared memory it does not (the PTX ISA's rule); f16/bf16 adds round to
// nearest even. inc/dec wrap into [0, b]. An atom is a possible spin (a compare-and-swap lock).
#include <cmath>
#include <cstring>

#include "harness/ptx/decode.h"
#include "harness/ptx/float_formats.h"
#include "harness/ptx/lane_values.h"

namespace pkb::ptx {
namespace {

enum AtomOp : std::int32_t { kAdd, kMin, kMax, kAnd, kOr, kXor, kExch, kCas, kInc, kDec };

std::uint64_t read_bits(const std::uint8_t* p, int bytes) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, static_cast<std::size_t>(bytes));
  return v;
}

std::uint16_t half_add(Type element, std::uint16_t a, std::uint16_t b, AtomOp op) {
  const double x = half_to_double(element, a), y = half_to_double(element, b);
  double r = x + y;
  if (op == kMin) r = std::isnan(x) ? y : std::isnan(y) ? x : std::fmin(x, y);
  if (op == kMax) r = std::isnan(x) ? y : std::isnan(y) ? x : std::fmax(x, y);
  return double_to_half(element, r, Round::rn);
}

// The new value of one element of `type` (old value `o`, operand `b`, cas's `c`).
std::uint64_t update(Type type, AtomOp op, std::uint64_t o, std::uint64_t b, std::uint64_t c, bool ftz) {
  switch (type) {
    case Type::f32: {
      float x = as_f32(o), y = as_f32(b);
      if (ftz) {
        x = flush_f32(x);
        y = flush_f32(y);
      }
      float r = op == kAdd ? x + y : op == kMin ? std::fmin(x, y) : op == kMax ? std::fmax(x, y) : y;
      if (op == kExch) return b;
      if (ftz) r = flush_f32(r);
      return bits_of(r);
    }
    case Type::f64: {
      const double x = as_f64(o), y = as_f64(b);
      if (op == kExch) return b;
      return bits_of(op == kAdd ? x + y : op == kMin ? std::fmin(x, y) : std::fmax(x, y));
    }
    case Type::f16: case Type::bf16:
      return half_add(type, static_cast<std::uint16_t>(o), static_cast<std::uint16_t>(b), op);
    case Type::f16x2: case Type::bf16x2: {
      const Type element = type == Type::bf16x2 ? Type::bf16 : Type::f16;
      const std::uint32_t lo = half_add(element, static_cast<std::uint16_t>(o), static_cast<std::uint16_t>(b), op);
      const std::uint32_t hi = half_add(element, static_cast<std::uint16_t>(o >> 16), static_cast<std::uint16_t>(b >> 16), op);
      return lo | hi << 16;
    }
    default: break;
  }
  const int bits = 8 * type_bytes(type);
  const std::uint64_t keep = bits == 64 ? ~0ull : (1ull << bits) - 1;
  o &= keep;
  b &= keep;
  const bool sign = is_signed(type);
  auto signed_of = [&](std::uint64_t v) {
    return bits == 64 ? static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v << (64 - bits)) >> (64 - bits);
  };
  switch (op) {
    case kAdd: return (o + b) & keep;
    case kMin: return sign ? (signed_of(o) < signed_of(b) ? o : b) : (o < b ? o : b);
    case kMax: return sign ? (signed_of(o) > signed_of(b) ? o : b) : (o > b ? o : b);
    case kAnd: return o & b;
    case kOr: return o | b;
    case kXor: return o ^ b;
    case kExch: return b;
    case kCas: return o == (c & keep) ? b : o;  // cas d, [a], b, c: compare with b, swap in c
    case kInc: return o >= b ? 0 : (o + 1) & keep;
    case kDec: return (o == 0 || o > b) ? b : o - 1;
  }
  return o;
}

void atomic(ExecState& s, const Instr& in, std::uint32_t mask) {
  const bool is_red = in.aux >= 100;
  const auto op = static_cast<AtomOp>(in.aux % 100);
  const int addr_at = is_red ? 0 : 1;
  const Operand& addr = in.ops[addr_at];
  const Src b = source(s, in, addr_at + 1);
  const Src c = op == kCas ? source(s, in, addr_at + 2) : b;
  std::uint64_t* d = is_red ? nullptr : dest(s, in, 0);
  const int bytes = type_bytes(in.type);
  std::uint64_t hash = 0;
  each_lane(mask, [&](int lane) {
    const std::uint64_t address = operand_address(s, addr, lane);
    std::uint8_t* p = translate(s, in.space, address, static_cast<std::uint32_t>(bytes), lane, Access::atomic);
    const bool global = in.space == Space::global || (in.space == Space::generic && (address & kTagMask) == 0);
    const std::uint64_t old = read_bits(p, bytes);
    // cas: b is the compare value, c the new one.
    const std::uint64_t next = op == kCas ? update(in.type, kCas, old, c[lane], b[lane], false)
                                          : update(in.type, op, old, b[lane], 0, global && in.type == Type::f32);
    std::memcpy(p, &next, static_cast<std::size_t>(bytes));
    if (next != old) wrote(s, p, static_cast<std::uint32_t>(bytes));
    std::uint64_t result = old;
    if (is_signed(in.type) && bytes < 8)
      result = static_cast<std::uint64_t>(static_cast<std::int64_t>(old << (64 - 8 * bytes)) >> (64 - 8 * bytes));
    if (!d) return;
    d[lane] = result;
    const auto host = reinterpret_cast<std::uint64_t>(p);
    hash = (hash * 0x100000001B3ull ^ host) * 0x100000001B3ull ^ old;
    s.loaded_words.push_back(host & ~3ull);
  });
  if (d) s.load_hash = hash;
}

}  // namespace

bool decode_atomic(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  const std::string& base = q.base();
  if (base != "atom" && base != "red") return false;
  instr.sem = decode_sem(q, instr.scope);
  if (q.take("acq_rel")) instr.sem = Sem::acq_rel;
  if (instr.scope == Scope::none) {
    const int scope = q.take_one({"cta", "cluster", "gpu", "sys"});
    if (scope >= 0) instr.scope = static_cast<Scope>(scope + 1);
  }
  instr.space = decode_space(q);
  q.drop_hints();
  q.take("noftz");
  const int op = q.take_one({"add", "min", "max", "and", "or", "xor", "exch", "cas", "inc", "dec"});
  const std::vector<Type> types = q.take_types();
  if (op < 0 || types.size() != 1 || q.take("v2") || q.take("v4") || q.take("v8")) {
    mark_unsupported(input, instr, op < 0 ? "operation" : "type or vector form");
    return true;
  }
  instr.type = types[0];
  instr.aux = op + (base == "red" ? 100 : 0);
  const int operands = (base == "red" ? 2 : 3) + (op == kCas ? 1 : 0);
  if (instr.nops != operands) {
    mark_unsupported(input, instr, "operands");
    return true;
  }
  if (instr.type == Type::f32) narrow_f32_immediates(instr);
  instr.handler = atomic;
  instr.flow = base == "atom" ? Flow::spin_load : Flow::simple;
  return true;
}

}  // namespace pkb::ptx
