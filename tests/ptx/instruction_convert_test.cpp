// cvt between floats and integers (.rni .rzi .rmi .rpi with saturation and NaN to 0, .rn .rz .rm
// .rp of wide integers), f64 <-> f32, rounding to integral values, .sat/.ftz, and integer widths.
#include <cfloat>
#include <climits>

#include "tests/ptx/float_reference.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

const std::vector<float> kToInt = {2.5f,  -2.5f, 3.5f,      -3.5f,       0.5f,     -0.5f,       1.4999999f,  -1.5f,
                                   1e10f, -1e10f, NAN,      INFINITY,    -INFINITY, 2147483520.0f, 2147483648.0f,
                                   -2147483648.0f, 0.0f,    -0.0f,       1e-30f,   4294967040.0f, 4294967296.0f, 1e19f,
                                   -1e19f, 9.2233715e18f,   -7.75f,      123456.5f};

// The ISA's integer rounding of x, then saturation to [lo, hi]; NaN converts to 0.
long double to_int(const std::string& round, double x, long double lo, long double hi) {
  if (std::isnan(x)) return 0;
  const double r = round == "rni" ? std::nearbyint(x) : round == "rzi" ? std::trunc(x) : round == "rmi" ? std::floor(x) : std::ceil(x);
  return std::max(lo, std::min(hi, static_cast<long double>(r)));
}

TEST(PtxCvt, FloatToIntegerRoundsAndSaturates) {
  std::vector<Case> cases;
  for (float v : kToInt) cases.push_back({f32_bits(v), f64_bits(v), 0});
  for (const std::string round : {"rni", "rzi", "rmi", "rpi"}) {
    expect_reference("cvt." + round + ".s32.f32 %d32, %fa;", Out::b32, cases, [=](u64 a, u64, u64) {
      return static_cast<u64>(static_cast<std::int64_t>(to_int(round, f32_of(a), INT_MIN, INT_MAX))) & 0xFFFFFFFF;
    });
    expect_reference("cvt." + round + ".u32.f32 %d32, %fa;", Out::b32, cases,
                     [=](u64 a, u64, u64) { return static_cast<u64>(to_int(round, f32_of(a), 0, UINT_MAX)); });
    expect_reference("cvt." + round + ".s64.f32 %d, %fa;", Out::b64, cases, [=](u64 a, u64, u64) {
      return static_cast<u64>(static_cast<std::int64_t>(to_int(round, f32_of(a), LLONG_MIN, LLONG_MAX)));
    });
    expect_reference("cvt." + round + ".u64.f64 %d, %db;", Out::b64, cases,
                     [=](u64, u64 b, u64) { return static_cast<u64>(to_int(round, f64_of(b), 0, ULLONG_MAX)); });
    expect_reference("cvt." + round + ".s32.f64 %d32, %db;", Out::b32, cases, [=](u64, u64 b, u64) {
      return static_cast<u64>(static_cast<std::int64_t>(to_int(round, f64_of(b), INT_MIN, INT_MAX))) & 0xFFFFFFFF;
    });
    expect_reference("cvt." + round + ".s16.f32 %d16, %fa;", Out::b16, cases, [=](u64 a, u64, u64) {
      return static_cast<u64>(static_cast<std::int64_t>(to_int(round, f32_of(a), -32768, 32767))) & 0xFFFF;
    });
  }
  // Ties to even: 2.5 -> 2, -2.5 -> -2, 3.5 -> 4; NaN -> 0; 1e10 -> INT_MAX; -1 -> 0 unsigned.
  expect_cases("cvt.rni.s32.f32 %d32, %fa;", Out::b32,
               {{f32_bits(2.5f), 0, 0, 2}, {f32_bits(-2.5f), 0, 0, 0xFFFFFFFE}, {f32_bits(3.5f), 0, 0, 4},
                {0x7FC00000, 0, 0, 0}, {f32_bits(1e10f), 0, 0, 0x7FFFFFFF}, {f32_bits(-1e10f), 0, 0, 0x80000000}});
  expect_cases("cvt.rzi.u32.f32 %d32, %fa;", Out::b32, {{f32_bits(-1.0f), 0, 0, 0}, {f32_bits(1e10f), 0, 0, 0xFFFFFFFF}});
  expect_cases("cvt.rmi.s32.f32 %d32, %fa;", Out::b32, {{f32_bits(-0.5f), 0, 0, 0xFFFFFFFF}});
  expect_cases("cvt.rpi.s32.f32 %d32, %fa;", Out::b32, {{f32_bits(-0.5f), 0, 0, 0}, {f32_bits(0.25f), 0, 0, 1}});
  // .ftz: a subnormal is zero before rounding up.
  expect_cases("cvt.rpi.ftz.s32.f32 %d32, %fa;", Out::b32, {{0x00000001, 0, 0, 0}});
  expect_cases("cvt.rpi.s32.f32 %d32, %fa;", Out::b32, {{0x00000001, 0, 0, 1}});
}

// `value` (sign and magnitude) rounded to a `precision`-bit significand in `round`.
double round_integer(bool negative, u64 magnitude, int precision, const std::string& round) {
  int bits = 0;
  while (bits < 64 && (magnitude >> bits) != 0) ++bits;
  if (bits <= precision) return negative ? -static_cast<double>(magnitude) : static_cast<double>(magnitude);
  const int shift = bits - precision;
  u64 q = magnitude >> shift;
  const u64 rest = magnitude & ((1ull << shift) - 1), half = 1ull << (shift - 1);
  const bool up = round == "rn" ? (rest > half || (rest == half && (q & 1))) : round == "rz" ? false
                  : round == "rm" ? negative && rest != 0 : !negative && rest != 0;
  const double v = std::ldexp(static_cast<double>(q + (up ? 1 : 0)), shift);
  return negative ? -v : v;
}

TEST(PtxCvt, IntegerToFloatRoundsInEachMode) {
  const std::vector<u64> values = {0, 1, 16777216, 16777217, 16777219, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
                                   0xFFFFFF7F, 0x1FFFFFFFFFFFFF, 0x20000000000001, 0x20000000000003, 0x7FFFFFFFFFFFFFFF,
                                   0x8000000000000001, 0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFF000001, 0x123456789ABCDEF};
  std::vector<Case> cases;
  for (u64 v : values) cases.push_back({v, 0, 0});
  for (const std::string round : {"rn", "rz", "rm", "rp"}) {
    expect_reference("cvt." + round + ".f32.s32 %fd, %a32;", Out::f32, cases, [=](u64 a, u64, u64) {
      const auto s = static_cast<std::int32_t>(a);
      return f32_bits(static_cast<float>(round_integer(s < 0, s < 0 ? 0 - static_cast<u64>(static_cast<std::int64_t>(s)) : static_cast<u64>(s), 24, round)));
    });
    expect_reference("cvt." + round + ".f32.u32 %fd, %a32;", Out::f32, cases,
                     [=](u64 a, u64, u64) { return f32_bits(static_cast<float>(round_integer(false, a & 0xFFFFFFFF, 24, round))); });
    expect_reference("cvt." + round + ".f32.s64 %fd, %a;", Out::f32, cases, [=](u64 a, u64, u64) {
      const bool negative = static_cast<std::int64_t>(a) < 0;
      return f32_bits(static_cast<float>(round_integer(negative, negative ? 0 - a : a, 24, round)));
    });
    expect_reference("cvt." + round + ".f64.u64 %dd, %a;", Out::f64, cases,
                     [=](u64 a, u64, u64) { return f64_bits(round_integer(false, a, 53, round)); });
    expect_reference("cvt." + round + ".f64.s64 %dd, %a;", Out::f64, cases, [=](u64 a, u64, u64) {
      const bool negative = static_cast<std::int64_t>(a) < 0;
      return f64_bits(round_integer(negative, negative ? 0 - a : a, 53, round));
    });
  }
  // 2^24 + 1 is a tie: .rn gives 2^24 (even), .rp 2^24 + 2, .rz 2^24.
  expect_cases("cvt.rn.f32.s32 %fd, %a32;", Out::f32, {{16777217, 0, 0, f32_bits(16777216.0f)}, {16777219, 0, 0, f32_bits(16777220.0f)}});
  expect_cases("cvt.rp.f32.s32 %fd, %a32;", Out::f32, {{16777217, 0, 0, f32_bits(16777218.0f)}});
  expect_cases("cvt.rz.f32.s32 %fd, %a32;", Out::f32, {{16777217, 0, 0, f32_bits(16777216.0f)}});
  expect_cases("cvt.rn.f64.s32 %dd, %a32;", Out::f64, {{0xFFFFFFFF, 0, 0, f64_bits(-1.0)}});
}

TEST(PtxCvt, F64ToF32RoundsInEachMode) {
  const std::vector<double> values = {1.0 + 0x1p-24,  1.0 + 0x1p-24 + 0x1p-50, -(1.0 + 0x1p-24 + 0x1p-50), 1e39, -1e39,
                                      1e-46,          0x1p-149 * 1.5,          0.1,                         -0.1,  DBL_MAX,
                                      0x1p-126 * 0.75, NAN,                    -0.0,                        INFINITY, 3.0};
  std::vector<Case> cases;
  for (double v : values) cases.push_back({f64_bits(v), 0, 0});
  for (const std::string round : {"rn", "rz", "rm", "rp"})
    expect_float_reference("cvt." + round + ".f32.f64 %fd, %da;", Out::f32, cases, [=](u64 a, u64, u64) {
      volatile double x = f64_of(a);
      std::fesetround(fe_mode(round));
      volatile float r = static_cast<float>(x);
      std::fesetround(FE_TONEAREST);
      return f32_bits(r);
    });
  expect_float_reference("cvt.rn.ftz.f32.f64 %fd, %da;", Out::f32, cases,
                         [](u64 a, u64, u64) { return f32_bits(flush(static_cast<float>(f64_of(a)))); });
  expect_cases("cvt.rn.f32.f64 %fd, %da;", Out::f32, {{f64_bits(1e39), 0, 0, 0x7F800000}, {f64_bits(1.0 + 0x1p-24), 0, 0, 0x3F800000}});
  expect_cases("cvt.rz.f32.f64 %fd, %da;", Out::f32, {{f64_bits(1e39), 0, 0, 0x7F7FFFFF}});
  // f32 -> f64 is exact, subnormals included.
  expect_cases("cvt.f64.f32 %dd, %fa;", Out::f64, {{0x00000001, 0, 0, f64_bits(0x1p-149)}, {f32_bits(0.1f), 0, 0, f64_bits(0.1f)}});
}

TEST(PtxCvt, RoundToIntegralSatAndFtzOnFloats) {
  const auto cases = f32_pairs({2.5f, -2.5f, 3.5f, 0.5f, -0.5f, 1e20f, -7.25f, 0x1p-140f, NAN, INFINITY, -0.0f});
  const std::vector<std::pair<std::string, float (*)(float)>> modes = {
      {"rni", [](float x) { return std::nearbyint(x); }}, {"rzi", [](float x) { return std::trunc(x); }},
      {"rmi", [](float x) { return std::floor(x); }},     {"rpi", [](float x) { return std::ceil(x); }}};
  for (const auto& [round, fn] : modes) {
    expect_float_reference("cvt." + round + ".f32.f32 %fd, %fa;", Out::f32, cases, [=](u64 a, u64, u64) { return f32_bits(fn(f32_of(a))); });
    expect_float_reference("cvt." + round + ".f64.f64 %dd, %db;", Out::f64, f64_pairs({2.5, -2.5, 3.5, -0.5, 1e300, 0x1p-1060}),
                           [=](u64, u64 b, u64) { return f64_bits(static_cast<double>(round == "rni" ? std::nearbyint(f64_of(b)) : round == "rzi" ? std::trunc(f64_of(b)) : round == "rmi" ? std::floor(f64_of(b)) : std::ceil(f64_of(b)))); });
  }
  // -0.5 rounds to -0 under .rni and .rpi, to -1 under .rmi.
  expect_cases("cvt.rni.f32.f32 %fd, %fa;", Out::f32, {{f32_bits(-0.5f), 0, 0, 0x80000000}, {f32_bits(2.5f), 0, 0, f32_bits(2.0f)}});
  expect_cases("cvt.rmi.f32.f32 %fd, %fa;", Out::f32, {{f32_bits(-0.5f), 0, 0, f32_bits(-1.0f)}});
  // .sat clamps to [0, 1] with NaN -> 0; .ftz flushes subnormals.
  expect_cases("cvt.sat.f32.f32 %fd, %fa;", Out::f32,
               {{f32_bits(1.5f), 0, 0, f32_bits(1.0f)}, {f32_bits(-3.0f), 0, 0, 0}, {0x7FC00000, 0, 0, 0}, {f32_bits(0.25f), 0, 0, f32_bits(0.25f)}});
  expect_cases("cvt.ftz.f32.f32 %fd, %fa;", Out::f32, {{0x00000100, 0, 0, 0}, {0x80000100, 0, 0, 0x80000000}, {f32_bits(3.0f), 0, 0, f32_bits(3.0f)}});
  expect_cases("cvt.rn.sat.f32.f64 %fd, %da;", Out::f32, {{f64_bits(7.0), 0, 0, f32_bits(1.0f)}});
}

TEST(PtxCvt, IntegerWidthsExtendTruncateAndSaturate) {
  // A narrower result is sign-extended (signed types) or zero-extended into a wider register.
  expect_cases("cvt.s32.s8 %d32, %a32;", Out::b32, {{0x80, 0, 0, 0xFFFFFF80}, {0x7F, 0, 0, 0x7F}, {0x1FF, 0, 0, 0xFFFFFFFF}});
  expect_cases("cvt.s32.s8 %d32, %a16;", Out::b32, {{0xFF80, 0, 0, 0xFFFFFF80}});
  expect_cases("cvt.u32.u8 %d32, %a32;", Out::b32, {{0x1FF, 0, 0, 0xFF}});
  expect_cases("cvt.s64.s16 %d, %a16;", Out::b64, {{0x8000, 0, 0, 0xFFFFFFFFFFFF8000}});
  expect_cases("cvt.u16.u32 %d16, %a32;", Out::b16, {{0x12345678, 0, 0, 0x5678}});
  expect_cases("cvt.s64.s32 %d, %a32;", Out::b64, {{0x80000000, 0, 0, 0xFFFFFFFF80000000}});
  expect_cases("cvt.u64.u32 %d, %a32;", Out::b64, {{0x80000000, 0, 0, 0x80000000}});
  expect_cases("cvt.u32.u64 %d32, %a;", Out::b32, {{0x123456789, 0, 0, 0x23456789}});
  expect_cases("cvt.sat.s8.s32 %d32, %a32;", Out::b32, {{1000, 0, 0, 0x7F}, {static_cast<u64>(-1000) & 0xFFFFFFFF, 0, 0, 0xFFFFFF80}, {0xFFFFFFFB, 0, 0, 0xFFFFFFFB}});
  expect_cases("cvt.sat.u8.s32 %d32, %a32;", Out::b32, {{0xFFFFFFFB, 0, 0, 0}, {300, 0, 0, 255}});
  expect_cases("cvt.sat.s32.s64 %d32, %a;", Out::b32, {{0x100000000, 0, 0, 0x7FFFFFFF}, {0xFFFFFFFF00000000, 0, 0, 0x80000000}});
  expect_cases("cvt.sat.u32.s32 %d32, %a32;", Out::b32, {{0xFFFFFFFF, 0, 0, 0}});
  expect_cases("cvt.sat.s32.u32 %d32, %a32;", Out::b32, {{0xFFFFFFFF, 0, 0, 0x7FFFFFFF}});
  expect_cases("cvt.sat.u16.s64 %d16, %a;", Out::b16, {{0x10000, 0, 0, 0xFFFF}, {~0ull, 0, 0, 0}});
  expect_cases("cvt.s16.s32 %d16, %a32;", Out::b16, {{0x18001, 0, 0, 0x8001}});
}

}  // namespace
}  // namespace pkb::ptx_test
