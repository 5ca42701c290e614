// IEEE 754 references for the float instruction tests: the host's SSE arithmetic under each
// rounding mode (every operand is volatile, so no operation moves across fesetround), flushing of
// subnormals for .ftz, and a check that accepts any NaN where the ISA leaves the payload open.
#pragma once

#include <cfenv>
#include <cmath>
#include <cstring>

#include "tests/ptx/instruction_cases.h"

namespace pkb::ptx_test {

/// The host rounding mode of a PTX rounding qualifier ("rn", "rz", "rm", "rp").
inline int fe_mode(const std::string& round) {
  return round == "rz" ? FE_TOWARDZERO : round == "rm" ? FE_DOWNWARD : round == "rp" ? FE_UPWARD : FE_TONEAREST;
}

/// a op b (or fma(a, b, c), sqrt(a)) rounded once in `mode`. op: + - * / f (fma) s (sqrt).
template <class T>
T ieee(char op, int mode, T x, T y = 0, T z = 0) {
  volatile T a = x, b = y, c = z;
  std::fesetround(mode);
  volatile T r = op == '+'   ? a + b
                 : op == '-' ? a - b
                 : op == '*' ? a * b
                 : op == '/' ? a / b
                 : op == 'f' ? std::fma(static_cast<T>(a), static_cast<T>(b), static_cast<T>(c))
                             : std::sqrt(static_cast<T>(a));
  std::fesetround(FE_TONEAREST);
  return r;
}

/// A subnormal becomes a zero of its sign (.ftz).
inline float flush(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

inline bool is_nan32(std::uint64_t bits) { return std::isnan(f32_of(bits)); }
inline bool is_nan64(std::uint64_t bits) { return std::isnan(f64_of(bits)); }

/// Like expect_reference, but where the reference is a NaN any NaN passes (the ISA does not fix
/// the payload); `wide` selects f64 results.
template <class Ref>
void expect_float_reference(const std::string& body, Out out, const std::vector<Case>& cases, Ref ref) {
  const CaseRun run = run_cases(body, cases, out);
  ASSERT_EQ(run.fault, "") << body;
  const bool wide = out == Out::f64;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::uint64_t want = ref(cases[i].a, cases[i].b, cases[i].c);
    const std::string where = body + "\n  a=" + hex(cases[i].a) + " b=" + hex(cases[i].b) + " c=" + hex(cases[i].c);
    if (wide ? is_nan64(want) : is_nan32(want))
      EXPECT_TRUE(wide ? is_nan64(run.d[i]) : is_nan32(run.d[i])) << where << "\n  got " << hex(run.d[i]) << ", want NaN";
    else
      EXPECT_EQ(hex(run.d[i]), hex(want)) << where;
  }
}

/// Every pair of f32 values, as bits.
inline std::vector<Case> f32_pairs(const std::vector<float>& values) {
  std::vector<std::uint64_t> bits;
  for (float v : values) bits.push_back(f32_bits(v));
  return pairs(bits);
}
inline std::vector<Case> f64_pairs(const std::vector<double>& values) {
  std::vector<std::uint64_t> bits;
  for (double v : values) bits.push_back(f64_bits(v));
  return pairs(bits);
}

/// A small binary float format: `ebits` exponent bits, `mbits` stored mantissa bits, IEEE-like
/// (all-ones exponent for inf / NaN) unless `finite_max` is set (e4m3: no inf, 448 is the largest).
struct Format {
  int ebits, mbits;
  double finite_max = 0;  // 0: the IEEE largest finite value
  int bias() const { return (1 << (ebits - 1)) - 1; }
  double largest() const {
    return finite_max != 0 ? finite_max : std::ldexp(2.0 - std::ldexp(1.0, -mbits), (1 << ebits) - 2 - bias());
  }
};
constexpr Format kF16{5, 10}, kBF16{8, 7}, kE4M3{4, 3, 448.0}, kE5M2{5, 2};

/// The value of `bits` in `format` (NaN for NaN encodings).
inline double decode(Format f, std::uint32_t bits) {
  const std::uint32_t mant = bits & ((1u << f.mbits) - 1), exp = (bits >> f.mbits) & ((1u << f.ebits) - 1);
  const bool negative = (bits >> (f.ebits + f.mbits)) & 1;
  double v;
  if (f.finite_max == 0 && exp == (1u << f.ebits) - 1) v = mant ? NAN : INFINITY;
  else if (f.finite_max != 0 && exp == (1u << f.ebits) - 1 && mant == (1u << f.mbits) - 1) v = NAN;
  else if (exp == 0) v = std::ldexp(static_cast<double>(mant), 1 - f.bias() - f.mbits);
  else v = std::ldexp(static_cast<double>(mant | (1u << f.mbits)), static_cast<int>(exp) - f.bias() - f.mbits);
  return negative ? -v : v;
}

/// `v` (exact) rounded to `format`: to nearest even, or toward zero; a finite overflow gives inf
/// (toward zero: the largest finite), and with `satfinite` inf and overflow give the largest
/// finite. NaN is not handled.
inline std::uint32_t encode(Format f, double v, bool toward_zero = false, bool satfinite = false) {
  const std::uint32_t sign = std::signbit(v) ? 1u << (f.ebits + f.mbits) : 0;
  const double a = std::fabs(v);
  const int emin = 1 - f.bias();
  const std::uint32_t inf = ((1u << f.ebits) - 1) << f.mbits;
  const auto largest_bits = [&]() { return encode(f, f.largest()); };
  if (std::isinf(a)) return sign | (satfinite || f.finite_max != 0 ? largest_bits() : inf);
  const int e = a == 0 ? emin : std::max(std::ilogb(a), emin);
  const double quantum = std::ldexp(1.0, e - f.mbits);
  const double m = toward_zero ? std::trunc(a / quantum) : std::nearbyint(a / quantum);
  const double r = m * quantum;
  if (r > f.largest()) return sign | (satfinite || toward_zero || f.finite_max != 0 ? largest_bits() : inf);
  if (r == 0) return sign;
  const int er = std::ilogb(r);
  if (er < emin) return sign | static_cast<std::uint32_t>(r / std::ldexp(1.0, emin - f.mbits));
  const auto mant = static_cast<std::uint32_t>(r / std::ldexp(1.0, er - f.mbits)) - (1u << f.mbits);
  return sign | static_cast<std::uint32_t>(er + f.bias()) << f.mbits | mant;
}

inline bool is_nan_in(Format f, std::uint64_t bits) { return std::isnan(decode(f, static_cast<std::uint32_t>(bits))); }

}  // namespace pkb::ptx_test
