// f16 and bf16 arithmetic, scalar and x2 (the low half of the register is element 0): add sub mul
// fma (.rn, .ftz for f16, .sat, .relu), neg abs min max (.NaN), ex2.approx and tanh.approx. Each
// result is computed in double from exact inputs and rounded once to the format.
#include <cmath>
#include <limits>

#include "harness/ptx/decode.h"
#include "harness/ptx/float_formats.h"
#include "harness/ptx/lane_values.h"

namespace pkb::ptx {
namespace {

enum HalfOp : std::int32_t { kOpAdd, kOpSub, kOpMul, kOpFma, kOpNeg, kOpAbs, kOpMin, kOpMax, kOpEx2, kOpTanh };

int arity(std::int32_t op) {
  switch (op) {
    case kOpFma: return 3;
    case kOpAdd: case kOpSub: case kOpMul: case kOpMin: case kOpMax: return 2;
    default: return 1;
  }
}

double flush_half(Type type, double v) {
  // Subnormal f16 magnitudes lie below 2^-14.
  if (type == Type::f16 && v != 0 && std::fabs(v) < 6.103515625e-05) return std::copysign(0.0, v);
  return v;
}

std::uint16_t one(Type element, std::int32_t op, std::uint16_t a, std::uint16_t b, std::uint16_t c,
                  const Instr& in) {
  // neg and abs flip or clear the sign bit (NaNs included), as the hardware does.
  if (op == kOpNeg) return static_cast<std::uint16_t>(a ^ 0x8000);
  if (op == kOpAbs) return static_cast<std::uint16_t>(a & 0x7FFF);
  const bool ftz = in.mods & kFtz;
  double x = half_to_double(element, a), y = half_to_double(element, b), z = half_to_double(element, c);
  if (ftz) {
    x = flush_half(element, x);
    y = flush_half(element, y);
    z = flush_half(element, z);
  }
  if (op == kOpMin || op == kOpMax) {
    if (std::isnan(x) || std::isnan(y)) {
      if ((in.mods & kNaN) || (std::isnan(x) && std::isnan(y))) return 0x7FFF;
      return std::isnan(x) ? b : a;
    }
    if (x == y && x == 0) {
      const bool neg = op == kOpMax ? (std::signbit(x) && std::signbit(y)) : (std::signbit(x) || std::signbit(y));
      return neg ? 0x8000 : 0;
    }
    return (op == kOpMax ? x > y : x < y) ? a : b;
  }
  double r = 0;
  switch (op) {
    case kOpAdd: r = x + y; break;
    case kOpSub: r = x - y; break;
    case kOpMul: r = x * y; break;
    case kOpFma: r = std::fma(x, y, z); break;
    case kOpEx2: r = std::exp2(x); break;
    case kOpTanh: r = std::tanh(x); break;
    default: break;
  }
  if (in.mods & kRelu) r = std::isnan(r) ? r : (r < 0 ? 0.0 : r);
  if (in.mods & kSat) r = std::isnan(r) ? 0.0 : r < 0 ? 0.0 : r > 1 ? 1.0 : r;
  if (ftz) r = flush_half(element, r);
  return double_to_half(element, r, Round::rn);
}

void half_op(ExecState& s, const Instr& in, std::uint32_t mask) {
  const int n = arity(in.aux);
  const Src a = source(s, in, 1);
  const Src b = n >= 2 ? source(s, in, 2) : a;
  const Src c = n >= 3 ? source(s, in, 3) : a;
  std::uint64_t* d = dest(s, in, 0);
  const bool pair = in.type == Type::f16x2 || in.type == Type::bf16x2;
  const Type element = in.type == Type::bf16 || in.type == Type::bf16x2 ? Type::bf16 : Type::f16;
  each_lane(mask, [&](int lane) {
    const auto x = static_cast<std::uint32_t>(a[lane]), y = static_cast<std::uint32_t>(b[lane]),
               z = static_cast<std::uint32_t>(c[lane]);
    std::uint32_t r = one(element, in.aux, static_cast<std::uint16_t>(x), static_cast<std::uint16_t>(y),
                          static_cast<std::uint16_t>(z), in);
    if (pair)
      r |= static_cast<std::uint32_t>(one(element, in.aux, static_cast<std::uint16_t>(x >> 16),
                                          static_cast<std::uint16_t>(y >> 16),
                                          static_cast<std::uint16_t>(z >> 16), in))
           << 16;
    d[lane] = r;
  });
}

}  // namespace

bool decode_half(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  const std::string& base = q.base();
  static const std::pair<const char*, HalfOp> kOps[] = {
      {"add", kOpAdd}, {"sub", kOpSub}, {"mul", kOpMul}, {"fma", kOpFma}, {"neg", kOpNeg},
      {"abs", kOpAbs}, {"min", kOpMin}, {"max", kOpMax}, {"ex2", kOpEx2}, {"tanh", kOpTanh}};
  int op = -1;
  for (const auto& [name, value] : kOps)
    if (base == name) op = value;
  if (op < 0) return false;
  std::vector<Type> types = q.take_types();
  if (types.size() != 1) return false;
  const Type type = types[0];
  if (type != Type::f16 && type != Type::f16x2 && type != Type::bf16 && type != Type::bf16x2) return false;
  instr.type = type;
  instr.aux = op;
  q.take("rn");
  q.take("approx");
  if (q.take("ftz")) instr.mods |= kFtz;
  if (q.take("sat")) instr.mods |= kSat;
  if (q.take("relu")) instr.mods |= kRelu;
  if (q.take("NaN")) instr.mods |= kNaN;
  if (q.take("oob") || q.take("xorsign") || q.take("abs")) {
    mark_unsupported(input, instr, "variant");
    return true;
  }
  if (instr.nops != arity(op) + 1) {
    mark_unsupported(input, instr, "operands");
    return true;
  }
  instr.handler = half_op;
  return true;
}

}  // namespace pkb::ptx
