// atom and red: add min max and or xor exch cas inc dec on integer types, add (min, max) on f32
// f64 f16 bf16 and their x2 forms, in global, shared or generic memory, lane by lane (each one is
// atomic: one host thread runs every lane). atom.add.f32 on global memory flushes subnormal
// inputs and results, on shared memory it does not (the PTX ISA's rule); f16/bf16 adds round to
// nearest even. inc/dec wrap into [0, b]. An atom is a possible spin (a compare-and-swap lock).
// sm_90's vector forms (.v2/.v4/.v8 add, min, max of floats in global memory) update element by
// element. cp.reduce.async.bulk uses the same element update (reduce_element).
#include <cmath>
#include <cstring>

#include "harness/ptx/decode.h"
#include "harness/ptx/exec_async.h"
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
  race_release(s, in);
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

// sm_90's vector forms, global memory only: atom.add.v2.f32 {d0, d1}, [a], {b0, b1} (and .v4;
// v2/v4/v8 of f16 or bf16, v2/v4 of f16x2 or bf16x2; add, min, max). Each element is its own
// atomic update; the whole vector is checked as one access.
void atomic_vector(ExecState& s, const Instr& in, std::uint32_t mask) {
  const bool is_red = in.aux >= 100;
  const auto op = static_cast<AtomOp>(in.aux % 100);
  const int addr_at = is_red ? 0 : 1;
  const Operand& addr = in.ops[addr_at];
  const Operand& values = in.ops[addr_at + 1];
  const auto& vec_regs = s.launch.program->vec_regs;
  auto slot = [&](const Operand& v, int e, int lane) -> std::uint64_t* {
    const std::int32_t r = vec_regs[static_cast<std::size_t>(v.reg + e)];
    return r < 0 ? nullptr : s.regs + static_cast<std::ptrdiff_t>(r) * kWarpLanes + lane;
  };
  const int bytes = type_bytes(in.type);
  const auto total = static_cast<std::uint32_t>(bytes * in.vec);
  race_release(s, in);
  each_lane(mask, [&](int lane) {
    std::uint8_t* p = translate(s, in.space, operand_address(s, addr, lane), total, lane, Access::atomic);
    for (int e = 0; e < in.vec; ++e) {
      std::uint8_t* at = p + e * bytes;
      const std::uint64_t old = read_bits(at, bytes);
      const std::uint64_t* b = slot(values, e, lane);
      const std::uint64_t next = update(in.type, op, old, b ? *b : 0, 0, in.type == Type::f32);
      std::memcpy(at, &next, static_cast<std::size_t>(bytes));
      if (!is_red)
        if (std::uint64_t* d = slot(in.ops[0], e, lane)) *d = old;
    }
    wrote(s, p, total);
  });
}

}  // namespace

std::uint64_t reduce_element(Type type, BulkReduce op, std::uint64_t old, std::uint64_t operand,
                             bool ftz) {
  static constexpr AtomOp kOps[] = {kAdd, kMin, kMax, kAnd, kOr, kXor, kInc, kDec};
  return update(type, kOps[static_cast<int>(op)], old, operand, 0, ftz);
}

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
  const int vector = q.take_one({"v2", "v4", "v8"});
  const std::vector<Type> types = q.take_types();
  if (op < 0 || types.size() != 1) {
    mark_unsupported(input, instr, op < 0 ? "operation" : "type");
    return true;
  }
  instr.type = types[0];
  if (vector >= 0) {
    const Type t = instr.type;
    const bool halves = t == Type::f16 || t == Type::bf16;
    const bool words = t == Type::f32 || t == Type::f16x2 || t == Type::bf16x2;
    const int data_at = base == "red" ? 1 : 2;
    const bool vectors = instr.nops == data_at + 1 && instr.ops[data_at].kind == Operand::Kind::vec &&
                         instr.ops[data_at].count == (2 << vector) &&
                         (base == "red" || instr.ops[0].kind == Operand::Kind::vec);
    if (!(halves || (words && vector < 2)) || (op != kAdd && op != kMin && op != kMax) ||
        instr.space != Space::global || !vectors) {
      mark_unsupported(input, instr, "vector form");
      return true;
    }
    instr.vec = static_cast<std::uint8_t>(2 << vector);
    instr.aux = op + (base == "red" ? 100 : 0);
    instr.handler = atomic_vector;
    return true;
  }
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
