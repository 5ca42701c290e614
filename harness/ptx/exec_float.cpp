// f32 and f64 arithmetic: add sub mul fma mad div rcp sqrt rsqrt sin cos lg2 ex2 tanh abs neg min
// max copysign testp, with .rn .rz .rm .rp (the host's rounding mode is set around the lane loop;
// this file is compiled with -frounding-math so the compiler honours it), .ftz (inputs and result
// flushed) and .sat (clamped to [0, 1], NaN to 0). fma is a real fused multiply-add. The .approx
// functions use the host's correctly rounded or nearly so libm, which is within the error bounds
// the PTX ISA gives for them (never bit-identical to a GPU: the checker's tolerance covers that).
#include <cfenv>
#include <cmath>
#include <limits>

#include "harness/ptx/decode.h"
#include "harness/ptx/float_formats.h"
#include "harness/ptx/lane_values.h"

namespace pkb::ptx {
namespace {

enum FloatOp : std::int32_t {
  kOpAdd, kOpSub, kOpMul, kOpFma, kOpDiv, kOpRcp, kOpSqrt, kOpRsqrt, kOpSin, kOpCos, kOpLg2, kOpEx2, kOpTanh, kOpAbs, kOpNeg,
  kOpMin, kOpMax, kOpCopysign,
};

template <class T>
T flush(T v) {
  if constexpr (std::is_same_v<T, float>) return flush_f32(v);
  else return flush_f64(v);
}

// The NaN the GPU writes when it makes one (all mantissa bits set).
template <class T>
T canonical_nan() {
  if constexpr (std::is_same_v<T, float>) return as_f32(0x7FFFFFFFu);
  else return as_f64(0x7FFFFFFFFFFFFFFFull);
}

template <class T>
T minmax(T a, T b, bool is_max, bool propagate_nan) {
  if (std::isnan(a) || std::isnan(b)) {
    if (propagate_nan || (std::isnan(a) && std::isnan(b))) return canonical_nan<T>();
    return std::isnan(a) ? b : a;
  }
  if (a == b && a == 0) {  // -0 is smaller than +0
    const bool negative = is_max ? (std::signbit(a) && std::signbit(b)) : (std::signbit(a) || std::signbit(b));
    return negative ? -T{0} : T{0};
  }
  return is_max ? (a > b ? a : b) : (a < b ? a : b);
}

template <class T>
T compute(std::int32_t op, T a, T b, T c, const Instr& in) {
  switch (op) {
    case kOpAdd: return a + b;
    case kOpSub: return a - b;
    case kOpMul: return a * b;
    case kOpFma: return std::fma(a, b, c);
    case kOpDiv: return a / b;
    case kOpRcp: return T{1} / a;
    case kOpSqrt: return std::sqrt(a);
    case kOpRsqrt: return T{1} / std::sqrt(a);
    case kOpSin: return std::sin(a);
    case kOpCos: return std::cos(a);
    case kOpLg2: return std::log2(a);
    case kOpEx2: return std::exp2(a);
    case kOpTanh: return std::tanh(a);
    case kOpAbs: return std::fabs(a);
    case kOpNeg: return -a;
    case kOpMin: return minmax(a, b, false, in.mods & kNaN);
    case kOpMax: return minmax(a, b, true, in.mods & kNaN);
    case kOpCopysign: return std::copysign(b, a);  // copysign d, a, b: b's magnitude, a's sign
  }
  return a;
}

int arity(std::int32_t op) {
  switch (op) {
    case kOpFma: return 3;
    case kOpAdd: case kOpSub: case kOpMul: case kOpDiv: case kOpMin: case kOpMax: case kOpCopysign: return 2;
    default: return 1;
  }
}

int host_rounding(Round round) {
  switch (round) {
    case Round::rz: return FE_TOWARDZERO;
    case Round::rm: return FE_DOWNWARD;
    case Round::rp: return FE_UPWARD;
    default: return FE_TONEAREST;
  }
}

template <class T>
void float_op(ExecState& s, const Instr& in, std::uint32_t mask) {
  const int n = arity(in.aux);
  const Src a = source(s, in, 1);
  const Src b = n >= 2 ? source(s, in, 2) : a;
  const Src c = n >= 3 ? source(s, in, 3) : a;
  std::uint64_t* d = dest(s, in, 0);
  const bool ftz = in.mods & kFtz, sat = in.mods & kSat;
  const int rounding = host_rounding(in.round);
  if (rounding != FE_TONEAREST) std::fesetround(rounding);
  each_lane(mask, [&](int lane) {
    T x = get<T>(a[lane]), y = get<T>(b[lane]), z = get<T>(c[lane]);
    if (ftz) {
      x = flush(x);
      y = flush(y);
      z = flush(z);
    }
    T r = compute<T>(in.aux, x, y, z, in);
    if (ftz) r = flush(r);
    if (sat) r = std::isnan(r) ? T{0} : r < 0 ? T{0} : r > 1 ? T{1} : r;
    d[lane] = put<T>(r);
  });
  if (rounding != FE_TONEAREST) std::fesetround(FE_TONEAREST);
}

// The common case without modifiers, kept apart so the lane loop stays small.
template <class T, std::int32_t Op>
void plain(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1), b = source(s, in, 2);
  std::uint64_t* d = dest(s, in, 0);
  if constexpr (Op == kOpFma) {
    const Src c = source(s, in, 3);
    each_lane(mask, [&](int lane) { d[lane] = put<T>(std::fma(get<T>(a[lane]), get<T>(b[lane]), get<T>(c[lane]))); });
  } else {
    each_lane(mask, [&](int lane) { d[lane] = put<T>(compute<T>(Op, get<T>(a[lane]), get<T>(b[lane]), T{}, in)); });
  }
}

// testp.{finite,infinite,number,notanumber,normal,subnormal} p, a
template <class T>
void testp(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1);
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) {
    const T x = get<T>(a[lane]);
    bool r = false;
    switch (in.aux) {
      case 0: r = std::isfinite(x); break;
      case 1: r = std::isinf(x); break;
      case 2: r = !std::isnan(x); break;
      case 3: r = std::isnan(x); break;
      case 4: r = std::isnormal(x) || x == 0; break;  // zeros count as normal (PTX ISA)
      case 5: r = std::fpclassify(x) == FP_SUBNORMAL; break;
    }
    d[lane] = r ? 1 : 0;
  });
}

}  // namespace

bool decode_float(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  const std::string& base = q.base();
  static const std::pair<const char*, FloatOp> kOps[] = {
      {"add", kOpAdd},   {"sub", kOpSub},   {"mul", kOpMul},   {"fma", kOpFma},     {"mad", kOpFma},
      {"div", kOpDiv},   {"rcp", kOpRcp},   {"sqrt", kOpSqrt}, {"rsqrt", kOpRsqrt}, {"sin", kOpSin},
      {"cos", kOpCos},   {"lg2", kOpLg2},   {"ex2", kOpEx2},   {"tanh", kOpTanh},   {"abs", kOpAbs},
      {"neg", kOpNeg},   {"min", kOpMin},   {"max", kOpMax},   {"copysign", kOpCopysign}};
  int op = -1;
  for (const auto& [name, value] : kOps)
    if (base == name) op = value;
  const bool is_testp = base == "testp";
  if (op < 0 && !is_testp) return false;
  std::vector<Type> types = q.take_types();
  if (types.size() != 1 || (types[0] != Type::f32 && types[0] != Type::f64)) {
    input.q = Qualifiers(instr.text);  // f16 / bf16 forms: the half family
    return false;
  }
  const Type type = types[0];
  instr.type = type;
  if (type == Type::f32) narrow_f32_immediates(instr);
  if (is_testp) {
    instr.aux = q.take_one({"finite", "infinite", "number", "notanumber", "normal", "subnormal"});
    instr.handler = type == Type::f32 ? testp<float> : testp<double>;
    if (instr.aux < 0) mark_unsupported(input, instr, "property");
    return true;
  }
  instr.aux = op;
  const int round = q.take_one({"rn", "rz", "rm", "rp"});
  if (round >= 0) instr.round = static_cast<Round>(static_cast<int>(Round::rn) + round);
  if (q.take("ftz")) instr.mods |= kFtz;
  if (q.take("sat")) instr.mods |= kSat;
  if (q.take("approx")) instr.mods |= kApprox;
  if (q.take("full")) instr.mods |= kApprox;
  if (q.take("NaN")) instr.mods |= kNaN;
  if (q.take("xorsign") || q.take("abs") || q.take("relu") || q.take("oob")) {
    mark_unsupported(input, instr, "min/max variant");
    return true;
  }
  if (instr.nops != arity(op) + 1) {
    mark_unsupported(input, instr, "operands");
    return true;
  }
  const bool modified = (instr.mods & (kFtz | kSat | kNaN)) != 0 ||
                        (instr.round != Round::none && instr.round != Round::rn);
  if (!modified && type == Type::f32) {
    switch (op) {
      case kOpAdd: instr.handler = plain<float, kOpAdd>; return true;
      case kOpSub: instr.handler = plain<float, kOpSub>; return true;
      case kOpMul: instr.handler = plain<float, kOpMul>; return true;
      case kOpFma: instr.handler = plain<float, kOpFma>; return true;
      default: break;
    }
  }
  if (!modified && type == Type::f64) {
    switch (op) {
      case kOpAdd: instr.handler = plain<double, kOpAdd>; return true;
      case kOpMul: instr.handler = plain<double, kOpMul>; return true;
      case kOpFma: instr.handler = plain<double, kOpFma>; return true;
      default: break;
    }
  }
  instr.handler = type == Type::f32 ? float_op<float> : float_op<double>;
  return true;
}

}  // namespace pkb::ptx
