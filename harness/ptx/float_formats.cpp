// The float formats (see float_formats.h), from one description each: exponent and mantissa
// widths, whether the all-ones exponent means infinity and NaN (IEEE) or only the all-ones
// pattern is NaN (e4m3), and the NaN the GPU writes.
#include "harness/ptx/float_formats.h"

#include <cmath>
#include <cstring>

namespace pkb::ptx {
namespace {

struct Format {
  int exp_bits;
  int mant_bits;
  bool ieee;            // all-ones exponent: infinity (mantissa 0) and NaN; else e4m3's rule
  std::uint32_t nan;    // the NaN the GPU produces (positive)
  int bias() const { return (1 << (exp_bits - 1)) - 1; }
  int min_exp() const { return 1 - bias(); }
  // The largest finite value's unbiased exponent and value.
  int max_exp() const { return ieee ? (1 << exp_bits) - 2 - bias() : (1 << exp_bits) - 1 - bias(); }
  double max_finite() const {
    // IEEE: all mantissa bits set; e4m3: all but the last (1.110 * 2^8 = 448).
    const double mantissa = ieee ? 2.0 - std::ldexp(1.0, -mant_bits) : 2.0 - std::ldexp(2.0, -mant_bits);
    return std::ldexp(mantissa, max_exp());
  }
  std::uint32_t inf() const { return ((1u << exp_bits) - 1) << mant_bits; }
  std::uint32_t max_bits() const {
    return ieee ? inf() - 1 : (((1u << exp_bits) - 1) << mant_bits) | ((1u << mant_bits) - 2);
  }
};

constexpr Format kF16{5, 10, true, 0x7FFF};
constexpr Format kBf16{8, 7, true, 0x7FFF};
constexpr Format kE4m3{4, 3, false, 0x7F};
constexpr Format kE5m2{5, 2, true, 0x7F};
constexpr Format kF32{8, 23, true, 0x7FFFFFFF};

double decode(const Format& f, std::uint32_t bits) {
  const int total = f.exp_bits + f.mant_bits;
  const bool negative = (bits >> total) & 1;
  const std::uint32_t exponent = (bits >> f.mant_bits) & ((1u << f.exp_bits) - 1);
  const std::uint32_t mantissa = bits & ((1u << f.mant_bits) - 1);
  double value;
  if (f.ieee && exponent == (1u << f.exp_bits) - 1) {
    value = mantissa == 0 ? INFINITY : NAN;
  } else if (!f.ieee && exponent == (1u << f.exp_bits) - 1 && mantissa == (1u << f.mant_bits) - 1) {
    value = NAN;
  } else if (exponent == 0) {
    value = std::ldexp(static_cast<double>(mantissa), f.min_exp() - f.mant_bits);
  } else {
    value = std::ldexp(1.0 + std::ldexp(static_cast<double>(mantissa), -f.mant_bits),
                       static_cast<int>(exponent) - f.bias());
  }
  return negative ? -value : value;
}

// Rounds |value| (finite, > 0) to a multiple of `quantum` as `round` says for sign `negative`.
double round_to(double magnitude, double quantum, Round round, bool negative) {
  const double q = magnitude / quantum;  // exact: quantum is a power of two
  double n = std::floor(q);
  const double frac = q - n;
  bool up = false;
  switch (round) {
    case Round::rz: up = false; break;
    case Round::rm: up = negative && frac > 0; break;
    case Round::rp: up = !negative && frac > 0; break;
    case Round::rna: up = frac >= 0.5; break;
    default: up = frac > 0.5 || (frac == 0.5 && std::fmod(n, 2.0) != 0); break;
  }
  if (up) n += 1;
  return n * quantum;
}

std::uint32_t encode(const Format& f, double value, Round round, bool satfinite) {
  const int total = f.exp_bits + f.mant_bits;
  const std::uint32_t sign = std::signbit(value) ? 1u << total : 0;
  if (std::isnan(value)) return f.nan;
  const bool negative = sign != 0;
  const double magnitude = std::fabs(value);
  auto overflow = [&]() -> std::uint32_t {
    // Per mode: the rounding direction decides between infinity and the largest finite value.
    const bool to_max = satfinite || !f.ieee || round == Round::rz ||
                        (round == Round::rm && !negative) || (round == Round::rp && negative);
    if (!f.ieee && !satfinite) return f.nan | sign;  // e4m3 has no infinity
    return sign | (to_max ? f.max_bits() : f.inf());
  };
  // An infinity stays one whatever the rounding (only finite values round to the largest finite).
  if (std::isinf(value)) return satfinite || !f.ieee ? (satfinite ? sign | f.max_bits() : f.nan | sign) : sign | f.inf();
  if (magnitude == 0) return sign;
  int e;
  std::frexp(magnitude, &e);  // magnitude = m * 2^e, m in [0.5, 1)
  int exponent = e - 1;       // magnitude = 1.x * 2^exponent
  if (exponent < f.min_exp()) exponent = f.min_exp();
  const double rounded = round_to(magnitude, std::ldexp(1.0, exponent - f.mant_bits), round, negative);
  if (rounded > f.max_finite()) return overflow();
  if (rounded == 0) return sign;
  std::frexp(rounded, &e);
  const int re = e - 1;
  if (re < f.min_exp()) {  // subnormal
    const auto mantissa = static_cast<std::uint32_t>(std::ldexp(rounded, f.mant_bits - f.min_exp()));
    return sign | mantissa;
  }
  const auto mantissa =
      static_cast<std::uint32_t>(std::ldexp(rounded, f.mant_bits - re) - std::ldexp(1.0, f.mant_bits));
  return sign | static_cast<std::uint32_t>(re + f.bias()) << f.mant_bits | mantissa;
}

}  // namespace

float bf16_to_float(std::uint16_t bits) {
  const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, 4);
  return value;
}

float f16_to_float(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1F, mantissa = bits & 0x3FF;
  std::uint32_t out;
  if (exponent == 0x1F) {
    out = sign | 0x7F800000u | mantissa << 13;
  } else if (exponent == 0) {
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-08f;  // 2^-24, exact
    std::memcpy(&out, &magnitude, 4);
    out |= sign;
  } else {
    out = sign | (exponent + 112) << 23 | mantissa << 13;
  }
  float value;
  std::memcpy(&value, &out, 4);
  return value;
}

std::uint16_t float_to_bf16_rn(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return 0x7FFF;
  return static_cast<std::uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
}

std::uint16_t float_to_f16_rn(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000);
  const std::uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) return 0x7FFF;
  if (magnitude >= 0x477FF000u) return sign | 0x7C00;  // 65520 and up round to infinity
  if (magnitude < 0x38800000u) {                        // below 2^-14: a subnormal (or zero)
    float small;
    std::memcpy(&small, &magnitude, 4);
    // Scaling by 2^24 is exact; rounding the result to an integer rounds to nearest even.
    return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(std::nearbyint(small * 16777216.0f)));
  }
  std::uint32_t half = ((magnitude >> 23) - 112) << 10 | (magnitude & 0x7FFFFF) >> 13;
  const std::uint32_t rest = magnitude & 0x1FFF;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;  // a carry moves into the exponent
  return static_cast<std::uint16_t>(sign | half);
}

double f16_to_double(std::uint16_t bits) { return f16_to_float(bits); }
double bf16_to_double(std::uint16_t bits) { return bf16_to_float(bits); }
double e4m3_to_double(std::uint8_t bits) { return decode(kE4m3, bits); }
double e5m2_to_double(std::uint8_t bits) { return decode(kE5m2, bits); }

std::uint16_t double_to_f16(double value, Round round, bool satfinite) {
  return static_cast<std::uint16_t>(encode(kF16, value, round, satfinite));
}
std::uint16_t double_to_bf16(double value, Round round, bool satfinite) {
  return static_cast<std::uint16_t>(encode(kBf16, value, round, satfinite));
}
std::uint8_t double_to_e4m3(double value, Round round, bool satfinite) {
  return static_cast<std::uint8_t>(encode(kE4m3, value, round, satfinite));
}
std::uint8_t double_to_e5m2(double value, Round round, bool satfinite) {
  return static_cast<std::uint8_t>(encode(kE5m2, value, round, satfinite));
}

float double_to_f32(double value, Round round) {
  if (round == Round::rn || round == Round::none) return static_cast<float>(value);
  if (std::isnan(value)) return static_cast<float>(value);
  const std::uint32_t bits = encode(kF32, value, round, false);
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

std::uint32_t f32_to_tf32(float value, Round round) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if (std::isnan(value) || std::isinf(value)) return bits & 0xFFFFE000u;
  const Format tf32{8, 10, true, 0x7FFFFFFF};
  const std::uint32_t narrow = encode(tf32, value, round, false);  // 19 bits
  return narrow << 13;
}

float flush_f32(float value) {
  return std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(0.0f, value) : value;
}

double flush_f64(double value) {
  return std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(0.0, value) : value;
}

}  // namespace pkb::ptx
