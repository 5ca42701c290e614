// f32 and f64 arithmetic with exact IEEE results: add sub mul fma mad div rcp sqrt under .rn .rz
// .rm .rp, .ftz and .sat, min/max with NaN and signed zeros, abs neg copysign testp.
#include <cfloat>

#include "tests/ptx/float_reference.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

const std::vector<float> kF32 = {1.0f,        0x1p-24f,  -1.0f,    -0x1p-24f, 0x1.8p-24f, 1.0f / 3.0f,
                                 3.0f,        0x1.000002p0f, FLT_MAX, -2.0f,  0x1p-126f,  0x1p-10f,
                                 0x1p-140f,   0.1f,      1e30f,    -0.0f,     0.0f,       7.0f,
                                 0x1p-149f,   INFINITY,  -INFINITY, NAN};
const std::vector<double> kF64 = {1.0,      0x1p-53,  -1.0,        -0x1p-53, 0x1.8p-53, 1.0 / 3.0, 3.0,
                                  0x1.0000000000001p0, DBL_MAX, -2.0, 0x1p-1022, 0x1p-1060, 0.1,
                                  -0.0,     0.0,      INFINITY,    NAN};
const char* const kRounds[] = {"rn", "rz", "rm", "rp"};

u64 b32(float x) { return f32_bits(x); }
float f(u64 bits) { return f32_of(bits); }
double g(u64 bits) { return f64_of(bits); }

TEST(PtxFloat, F32AddSubMulRoundInEachMode) {
  const auto cases = f32_pairs(kF32);
  for (const char* round : kRounds) {
    const int mode = fe_mode(round);
    for (char op : {'+', '-', '*'}) {
      const std::string name = op == '+' ? "add" : op == '-' ? "sub" : "mul";
      expect_float_reference(name + "." + round + ".f32 %fd, %fa, %fb;", Out::f32, cases,
                             [=](u64 a, u64 b, u64) { return b32(ieee<float>(op, mode, f(a), f(b))); });
    }
  }
}

TEST(PtxFloat, F32RoundingModesDifferWhereTheISASaysSo) {
  // 1 + 2^-24 is halfway between 1 and 1 + 2^-23: .rn ties to even (1), .rp goes up.
  const u64 one = 0x3F800000, half_ulp = 0x33800000, minus_one = 0xBF800000, minus_half_ulp = 0xB3800000;
  expect_cases("add.rn.f32 %fd, %fa, %fb;", Out::f32, {{one, half_ulp, 0, 0x3F800000}, {minus_one, minus_half_ulp, 0, 0xBF800000}});
  expect_cases("add.rz.f32 %fd, %fa, %fb;", Out::f32, {{one, half_ulp, 0, 0x3F800000}, {minus_one, minus_half_ulp, 0, 0xBF800000}});
  expect_cases("add.rm.f32 %fd, %fa, %fb;", Out::f32, {{one, half_ulp, 0, 0x3F800000}, {minus_one, minus_half_ulp, 0, 0xBF800001}});
  expect_cases("add.rp.f32 %fd, %fa, %fb;", Out::f32, {{one, half_ulp, 0, 0x3F800001}, {minus_one, minus_half_ulp, 0, 0xBF800000}});
  // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: .rn and .rz give 1 + 2^-22, .rp one ulp more.
  expect_cases("mul.rz.f32 %fd, %fa, %fb;", Out::f32, {{0x3F800001, 0x3F800001, 0, 0x3F800002}});
  expect_cases("mul.rp.f32 %fd, %fa, %fb;", Out::f32, {{0x3F800001, 0x3F800001, 0, 0x3F800003}});
  // An exact zero sum is +0, but -0 when rounding toward -inf; overflow goes to inf or FLT_MAX.
  expect_cases("sub.rn.f32 %fd, %fa, %fb;", Out::f32, {{one, one, 0, 0}});
  expect_cases("sub.rm.f32 %fd, %fa, %fb;", Out::f32, {{one, one, 0, 0x80000000}});
  expect_cases("add.rz.f32 %fd, %fa, %fb;", Out::f32, {{0x7F7FFFFF, 0x7F7FFFFF, 0, 0x7F7FFFFF}});
  expect_cases("add.rn.f32 %fd, %fa, %fb;", Out::f32, {{0x7F7FFFFF, 0x7F7FFFFF, 0, 0x7F800000}});
  // Without a rounding qualifier add is .rn.
  expect_cases("add.f32 %fd, %fa, %fb;", Out::f32, {{one, half_ulp, 0, 0x3F800000}, {one, 0x34400000, 0, 0x3F800002}});
}

TEST(PtxFloat, F32FtzFlushesSubnormalInputsAndResults) {
  const auto cases = f32_pairs(kF32);
  expect_float_reference("add.rn.ftz.f32 %fd, %fa, %fb;", Out::f32, cases,
                         [](u64 a, u64 b, u64) { return b32(flush(flush(f(a)) + flush(f(b)))); });
  expect_float_reference("mul.rn.ftz.f32 %fd, %fa, %fb;", Out::f32, cases,
                         [](u64 a, u64 b, u64) { return b32(flush(flush(f(a)) * flush(f(b)))); });
  // 2^-140 is subnormal: x + 0 with .ftz is +0; 2^-126 * 0.5 (subnormal) flushes to +0, and
  // without .ftz it is exact (0x00400000).
  expect_cases("add.ftz.f32 %fd, %fa, %fb;", Out::f32, {{0x00000200, 0, 0, 0}, {0x80000200, 0x80000000, 0, 0x80000000}});
  expect_cases("mul.ftz.f32 %fd, %fa, %fb;", Out::f32, {{0x00800000, 0x3F000000, 0, 0}, {0x80800000, 0x3F000000, 0, 0x80000000}});
  expect_cases("mul.f32 %fd, %fa, %fb;", Out::f32, {{0x00800000, 0x3F000000, 0, 0x00400000}});
}

TEST(PtxFloat, F32SatClampsToTheUnitIntervalAndNaNToZero) {
  expect_cases("add.sat.f32 %fd, %fa, %fb;", Out::f32,
               {{b32(0.75f), b32(0.5f), 0, b32(1.0f)},
                {b32(-0.75f), b32(0.5f), 0, 0},
                {b32(0.25f), b32(0.5f), 0, b32(0.75f)},
                {0x7FC00000, b32(1.0f), 0, 0},
                {b32(INFINITY), b32(-INFINITY), 0, 0}});
  expect_cases("mul.sat.f32 %fd, %fa, %fb;", Out::f32, {{b32(3.0f), b32(2.0f), 0, b32(1.0f)}, {b32(3.0f), b32(-2.0f), 0, 0}});
  expect_cases("fma.rn.sat.f32 %fd, %fa, %fb, %fc;", Out::f32, {{b32(0.5f), b32(0.5f), b32(0.5f), b32(0.75f)}, {b32(2.0f), b32(2.0f), b32(-1.0f), b32(1.0f)}});
}

TEST(PtxFloat, FmaRoundsOnce) {
  // (1 + 2^-23)^2 - (1 + 2^-22) is 2^-46 fused; unfused the product rounds to 1 + 2^-22 and the
  // result is 0.
  expect_cases("fma.rn.f32 %fd, %fa, %fb, %fc;", Out::f32, {{0x3F800001, 0x3F800001, 0xBF800002, 0x28800000}});
  expect_cases("mad.rn.f32 %fd, %fa, %fb, %fc;", Out::f32, {{0x3F800001, 0x3F800001, 0xBF800002, 0x28800000}});
  expect_cases("fma.rn.f64 %dd, %da, %db, %dc;", Out::f64,
               {{f64_bits(0x1.0000000000001p0), f64_bits(0x1.0000000000001p0), f64_bits(-0x1.0000000000002p0), f64_bits(0x1p-104)}});
  std::vector<Case> cases;
  for (const Case& k : f32_pairs({1.0f, 1.0f / 3.0f, -3.0f, 0x1.000002p0f, 1e30f, 0x1p-126f, -0.0f}))
    for (float c : {0.0f, -1.0f, 0x1p-30f, -1e30f}) cases.push_back({k.a, k.b, b32(c)});
  for (const char* round : kRounds)
    expect_float_reference(std::string("fma.") + round + ".f32 %fd, %fa, %fb, %fc;", Out::f32, cases, [=](u64 a, u64 b, u64 c) {
      return b32(ieee<float>('f', fe_mode(round), f(a), f(b), f(c)));
    });
  expect_float_reference("fma.rn.ftz.f32 %fd, %fa, %fb, %fc;", Out::f32, cases,
                         [](u64 a, u64 b, u64 c) { return b32(flush(std::fma(flush(f(a)), flush(f(b)), flush(f(c))))); });
}

TEST(PtxFloat, F32DivRcpSqrtAreCorrectlyRounded) {
  const auto cases = f32_pairs(kF32);
  for (const char* round : kRounds)
    expect_float_reference(std::string("div.") + round + ".f32 %fd, %fa, %fb;", Out::f32, cases,
                           [=](u64 a, u64 b, u64) { return b32(ieee<float>('/', fe_mode(round), f(a), f(b))); });
  expect_float_reference("rcp.rn.f32 %fd, %fa;", Out::f32, cases,
                         [](u64 a, u64, u64) { return b32(ieee<float>('/', FE_TONEAREST, 1.0f, f(a))); });
  for (const char* round : {"rn", "rz", "rp"})
    expect_float_reference(std::string("sqrt.") + round + ".f32 %fd, %fa;", Out::f32, cases,
                           [=](u64 a, u64, u64) { return b32(ieee<float>('s', fe_mode(round), f(a))); });
  expect_cases("sqrt.rn.f32 %fd, %fa;", Out::f32, {{b32(16.0f), 0, 0, b32(4.0f)}, {b32(2.25f), 0, 0, b32(1.5f)}, {0x80000000, 0, 0, 0x80000000}});
  expect_cases("div.rn.f32 %fd, %fa, %fb;", Out::f32, {{b32(1.0f), b32(3.0f), 0, 0x3EAAAAAB}, {b32(1.0f), 0x80000000, 0, 0xFF800000}});
}

TEST(PtxFloat, FtzOnCorrectlyRoundedDivRcpSqrt) {
  const auto cases = f32_pairs(kF32);
  expect_float_reference("div.rn.ftz.f32 %fd, %fa, %fb;", Out::f32, cases,
                         [](u64 a, u64 b, u64) { return b32(flush(flush(f(a)) / flush(f(b)))); });
  expect_float_reference("rcp.rn.ftz.f32 %fd, %fa;", Out::f32, cases, [](u64 a, u64, u64) { return b32(flush(1.0f / flush(f(a)))); });
  expect_float_reference("sqrt.rn.ftz.f32 %fd, %fa;", Out::f32, cases, [](u64 a, u64, u64) { return b32(flush(std::sqrt(flush(f(a))))); });
  // 1 / 2^127 = 2^-127 is subnormal: flushed to 0 with .ftz.
  expect_cases("rcp.rn.ftz.f32 %fd, %fa;", Out::f32, {{0x7F000000, 0, 0, 0}});
  expect_cases("rcp.rn.f32 %fd, %fa;", Out::f32, {{0x7F000000, 0, 0, 0x00400000}});
}

TEST(PtxFloat, F64FmaRoundsOnceInEachMode) {
  std::vector<Case> cases;
  for (const Case& k : f64_pairs({1.0, 1.0 / 3.0, -3.0, 0x1.0000000000001p0, 1e300, 0x1p-1022, -0.0}))
    for (double c : {0.0, -1.0, 0x1p-60, -1e300, -1.0 / 3.0}) cases.push_back({k.a, k.b, f64_bits(c)});
  for (const char* round : kRounds)
    expect_float_reference(std::string("fma.") + round + ".f64 %dd, %da, %db, %dc;", Out::f64, cases, [=](u64 a, u64 b, u64 c) {
      return f64_bits(ieee<double>('f', fe_mode(round), g(a), g(b), g(c)));
    });
  expect_float_reference("mad.rn.f64 %dd, %da, %db, %dc;", Out::f64, cases,
                         [](u64 a, u64 b, u64 c) { return f64_bits(std::fma(g(a), g(b), g(c))); });
}

TEST(PtxFloat, F64ArithmeticRoundsInEachMode) {
  const auto cases = f64_pairs(kF64);
  for (const char* round : kRounds) {
    const int mode = fe_mode(round);
    for (char op : {'+', '-', '*', '/'}) {
      const std::string name = op == '+' ? "add" : op == '-' ? "sub" : op == '*' ? "mul" : "div";
      expect_float_reference(name + "." + round + ".f64 %dd, %da, %db;", Out::f64, cases,
                             [=](u64 a, u64 b, u64) { return f64_bits(ieee<double>(op, mode, g(a), g(b))); });
    }
    expect_float_reference(std::string("sqrt.") + round + ".f64 %dd, %da;", Out::f64, cases,
                           [=](u64 a, u64, u64) { return f64_bits(ieee<double>('s', mode, g(a))); });
    expect_float_reference(std::string("rcp.") + round + ".f64 %dd, %da;", Out::f64, cases,
                           [=](u64 a, u64, u64) { return f64_bits(ieee<double>('/', mode, 1.0, g(a))); });
  }
  expect_cases("add.rp.f64 %dd, %da, %db;", Out::f64, {{f64_bits(1.0), f64_bits(0x1p-53), 0, f64_bits(0x1.0000000000001p0)}});
  expect_cases("add.rn.f64 %dd, %da, %db;", Out::f64, {{f64_bits(1.0), f64_bits(0x1p-53), 0, f64_bits(1.0)}});
}

TEST(PtxFloat, MinMaxReturnTheNumberOverNaNAndOrderSignedZeros) {
  // One NaN operand: the other operand. -0 < +0. min.NaN / max.NaN propagate the canonical NaN.
  auto pick = [](bool is_min) {
    return [=](u64 a, u64 b, u64) -> u64 {
      const float x = f(a), y = f(b);
      if (std::isnan(x) && std::isnan(y)) return 0x7FFFFFFF;
      if (std::isnan(x)) return b;
      if (std::isnan(y)) return a;
      if (x == 0 && y == 0) return (std::signbit(x) == is_min) ? a : b;
      return (is_min ? x < y : x > y) ? a : b;
    };
  };
  const auto cases = f32_pairs({1.0f, -2.0f, -0.0f, 0.0f, INFINITY, -INFINITY, NAN, 0x1p-140f});
  expect_float_reference("min.f32 %fd, %fa, %fb;", Out::f32, cases, pick(true));
  expect_float_reference("max.f32 %fd, %fa, %fb;", Out::f32, cases, pick(false));
  expect_cases("min.f32 %fd, %fa, %fb;", Out::f32, {{0x7FC00000, b32(3.0f), 0, b32(3.0f)}, {b32(0.0f), b32(-0.0f), 0, 0x80000000}});
  expect_cases("max.f32 %fd, %fa, %fb;", Out::f32, {{b32(-3.0f), 0x7FC00000, 0, b32(-3.0f)}, {b32(-0.0f), b32(0.0f), 0, 0}});
  // The canonical f32 NaN (what the GPU produces) is 0x7fffffff.
  expect_cases("min.NaN.f32 %fd, %fa, %fb;", Out::f32, {{0x7FC00000, b32(3.0f), 0, 0x7FFFFFFF}, {b32(1.0f), b32(3.0f), 0, b32(1.0f)}});
  expect_cases("max.NaN.f32 %fd, %fa, %fb;", Out::f32, {{b32(3.0f), 0xFFC00001, 0, 0x7FFFFFFF}});
  expect_cases("min.ftz.f32 %fd, %fa, %fb;", Out::f32, {{0x80000200, b32(1.0f), 0, 0x80000000}});
  expect_cases("min.f64 %dd, %da, %db;", Out::f64, {{f64_bits(NAN), f64_bits(-5.0), 0, f64_bits(-5.0)}, {f64_bits(0.0), f64_bits(-0.0), 0, f64_bits(-0.0)}});
  expect_cases("max.f64 %dd, %da, %db;", Out::f64, {{f64_bits(2.0), f64_bits(NAN), 0, f64_bits(2.0)}});
}

TEST(PtxFloat, AbsNegAndCopysign) {
  expect_cases("abs.f32 %fd, %fa;", Out::f32, {{0x80000000, 0, 0, 0}, {b32(-2.5f), 0, 0, b32(2.5f)}, {0x80000001, 0, 0, 1}});
  expect_cases("neg.f32 %fd, %fa;", Out::f32, {{0, 0, 0, 0x80000000}, {b32(2.5f), 0, 0, b32(-2.5f)}});
  expect_cases("abs.ftz.f32 %fd, %fa;", Out::f32, {{0x80000001, 0, 0, 0}});
  expect_cases("abs.f64 %dd, %da;", Out::f64, {{f64_bits(-0.0), 0, 0, 0}, {f64_bits(-3.0), 0, 0, f64_bits(3.0)}});
  expect_cases("neg.f64 %dd, %da;", Out::f64, {{f64_bits(3.0), 0, 0, f64_bits(-3.0)}});
  // NaN stays NaN (the ISA leaves the payload open).
  expect_float_reference("abs.f32 %fd, %fa;", Out::f32, {{0xFFC00000}}, [](u64, u64, u64) { return u64{0x7FFFFFFF}; });
  expect_float_reference("neg.f32 %fd, %fa;", Out::f32, {{0x7FC00000}}, [](u64, u64, u64) { return u64{0x7FFFFFFF}; });
  // copysign d, a, b: b's magnitude with a's sign.
  expect_cases("copysign.f32 %fd, %fa, %fb;", Out::f32,
               {{b32(-1.0f), b32(2.0f), 0, b32(-2.0f)}, {b32(1.0f), b32(-2.0f), 0, b32(2.0f)}, {0x80000000, 0, 0, 0x80000000}});
  expect_cases("copysign.f64 %dd, %da, %db;", Out::f64, {{f64_bits(-0.0), f64_bits(7.0), 0, f64_bits(-7.0)}});
}

TEST(PtxFloat, TestpClassifiesAndCountsZerosAsNormal) {
  const std::vector<std::pair<std::string, bool (*)(int)>> ops = {
      {"finite", [](int k) { return k != FP_INFINITE && k != FP_NAN; }},
      {"infinite", [](int k) { return k == FP_INFINITE; }},
      {"number", [](int k) { return k != FP_NAN; }},
      {"notanumber", [](int k) { return k == FP_NAN; }},
      {"normal", [](int k) { return k == FP_NORMAL || k == FP_ZERO; }},
      {"subnormal", [](int k) { return k == FP_SUBNORMAL; }},
  };
  for (const auto& [name, test] : ops) {
    std::vector<Check> narrow, wide;
    for (float v : {0.0f, -0.0f, 1.0f, 0x1p-140f, -0x1p-149f, INFINITY, -INFINITY, NAN, FLT_MAX})
      narrow.push_back({b32(v), 0, 0, test(std::fpclassify(v)) ? 1u : 0u});
    for (double v : {0.0, -0.0, -1.0, 0x1p-1060, 0x1p-140, double(INFINITY), double(NAN), DBL_MAX})
      wide.push_back({f64_bits(v), 0, 0, test(std::fpclassify(v)) ? 1u : 0u});
    expect_cases("testp." + name + ".f32 %p, %fa;", Out::pred, narrow);
    expect_cases("testp." + name + ".f64 %p, %da;", Out::pred, wide);
  }
}

}  // namespace
}  // namespace pkb::ptx_test
