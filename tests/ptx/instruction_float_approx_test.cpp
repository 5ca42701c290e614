// The approximate f32 instructions (ex2 lg2 rsqrt rcp sqrt sin cos tanh div.approx div.full) within
// error bounds no tighter than the PTX ISA's stated maxima, and their exactly specified special values.
#include <cfloat>

#include "tests/ptx/float_reference.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

std::vector<Case> singles(const std::vector<float>& values) {
  std::vector<Case> cases;
  for (float v : values) cases.push_back({f32_bits(v), 0, 0});
  return cases;
}

// Each result within rel * |exact| + abs of the double-precision function.
void expect_close(const std::string& body, const std::vector<Case>& cases, double (*exact)(double, double),
                  double rel, double abs) {
  const CaseRun run = run_cases(body, cases, Out::f32);
  ASSERT_EQ(run.fault, "") << body;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const double want = exact(f32_of(cases[i].a), f32_of(cases[i].b));
    const double got = f32_of(run.d[i]);
    EXPECT_LE(std::fabs(got - want), rel * std::fabs(want) + abs)
        << body << "\n  a=" << f32_of(cases[i].a) << " b=" << f32_of(cases[i].b) << ": got " << got << " want " << want;
  }
}

const double kRel22 = std::ldexp(1.0, -22);  // about 2 ulp

TEST(PtxFloatApprox, Ex2WithinTwoUlps) {
  // The ISA: maximum relative error 2^-22.5 (over the full range for .ftz, for |x| < 126 without).
  const auto cases = singles({-100.0f, -10.5f, -1.0f, -0.5f, 0.3f, 1.0f, 2.5f, 10.0f, 20.0f, 100.0f, 127.5f, 1e-3f});
  expect_close("ex2.approx.f32 %fd, %fa;", cases, [](double x, double) { return std::exp2(x); }, kRel22, 0);
  expect_close("ex2.approx.ftz.f32 %fd, %fa;", cases, [](double x, double) { return std::exp2(x); }, kRel22, 0);
  // Special values: -inf -> +0, +-0 -> 1, +inf -> +inf.
  expect_cases("ex2.approx.f32 %fd, %fa;", Out::f32,
               {{0xFF800000, 0, 0, 0}, {0, 0, 0, 0x3F800000}, {0x80000000, 0, 0, 0x3F800000}, {0x7F800000, 0, 0, 0x7F800000}});
}

TEST(PtxFloatApprox, Lg2WithinTheAbsoluteBound) {
  // The ISA: maximum absolute error 2^-22.6 for the mantissa; checked as 2^-22 plus 2^-22 relative.
  const auto cases = singles({1e-30f, 0.1f, 0.5f, 0.75f, 1.0f, 1.5f, 2.0f, 3.0f, 10.0f, 1e10f, 3e38f});
  expect_close("lg2.approx.f32 %fd, %fa;", cases, [](double x, double) { return std::log2(x); }, kRel22, kRel22);
  expect_close("lg2.approx.ftz.f32 %fd, %fa;", cases, [](double x, double) { return std::log2(x); }, kRel22, kRel22);
  // +-0 -> -inf, +inf -> +inf, negative -> NaN; with .ftz a subnormal is 0.
  expect_cases("lg2.approx.f32 %fd, %fa;", Out::f32, {{0, 0, 0, 0xFF800000}, {0x80000000, 0, 0, 0xFF800000}, {0x7F800000, 0, 0, 0x7F800000}});
  expect_cases("lg2.approx.ftz.f32 %fd, %fa;", Out::f32, {{0x00000100, 0, 0, 0xFF800000}});
  expect_float_reference("lg2.approx.f32 %fd, %fa;", Out::f32, singles({-1.0f}), [](u64, u64, u64) { return u64{0x7FFFFFFF}; });
}

TEST(PtxFloatApprox, RsqrtRcpAndSqrtApproxWithinBounds) {
  const auto cases = singles({1e-30f, 0.01f, 0.5f, 1.0f, 2.0f, 3.0f, 1e6f, 1e30f, 3e38f, 0x1p-140f});
  // rsqrt: relative error 2^-22.9; rcp.approx: 1 ulp; sqrt.approx: relative 2^-23.
  expect_close("rsqrt.approx.f32 %fd, %fa;", cases, [](double x, double) { return 1 / std::sqrt(x); }, kRel22, 0);
  expect_close("sqrt.approx.f32 %fd, %fa;", cases, [](double x, double) { return std::sqrt(x); }, kRel22, 0);
  expect_close("rcp.approx.f32 %fd, %fa;", singles({1e-30f, 0.01f, 0.5f, 1.0f, 3.0f, -7.0f, 1e6f, 1e30f}),
               [](double x, double) { return 1 / x; }, kRel22, 0);
  expect_cases("rsqrt.approx.f32 %fd, %fa;", Out::f32,
               {{0, 0, 0, 0x7F800000}, {0x80000000, 0, 0, 0xFF800000}, {0x7F800000, 0, 0, 0}});
  expect_cases("rcp.approx.f32 %fd, %fa;", Out::f32,
               {{0, 0, 0, 0x7F800000}, {0x80000000, 0, 0, 0xFF800000}, {0x7F800000, 0, 0, 0}, {0xFF800000, 0, 0, 0x80000000}});
  expect_cases("sqrt.approx.f32 %fd, %fa;", Out::f32, {{0x80000000, 0, 0, 0x80000000}, {0x7F800000, 0, 0, 0x7F800000}, {0, 0, 0, 0}});
  expect_float_reference("rsqrt.approx.f32 %fd, %fa;", Out::f32, singles({-4.0f}), [](u64, u64, u64) { return u64{0x7FFFFFFF}; });
  expect_float_reference("sqrt.approx.f32 %fd, %fa;", Out::f32, singles({-4.0f}), [](u64, u64, u64) { return u64{0x7FFFFFFF}; });
  expect_cases("rsqrt.approx.ftz.f32 %fd, %fa;", Out::f32, {{0x00000100, 0, 0, 0x7F800000}});
}

TEST(PtxFloatApprox, SinCosWithinTheAbsoluteBound) {
  // The ISA: maximum absolute error 2^-20.9 in -pi..pi (checked as 2^-20).
  const auto cases = singles({-3.14159f, -2.0f, -1.0f, -0.25f, 0.1f, 0.5f, 1.0f, 1.5707964f, 2.5f, 3.14159f});
  const double bound = std::ldexp(1.0, -20);
  expect_close("sin.approx.f32 %fd, %fa;", cases, [](double x, double) { return std::sin(x); }, 0, bound);
  expect_close("cos.approx.f32 %fd, %fa;", cases, [](double x, double) { return std::cos(x); }, 0, bound);
  expect_close("sin.approx.ftz.f32 %fd, %fa;", cases, [](double x, double) { return std::sin(x); }, 0, bound);
  // sin(+-0) = +-0, cos(+-0) = 1, sin(inf) and cos(inf) are NaN.
  expect_cases("sin.approx.f32 %fd, %fa;", Out::f32, {{0, 0, 0, 0}, {0x80000000, 0, 0, 0x80000000}});
  expect_cases("cos.approx.f32 %fd, %fa;", Out::f32, {{0, 0, 0, 0x3F800000}, {0x80000000, 0, 0, 0x3F800000}});
  expect_float_reference("sin.approx.f32 %fd, %fa;", Out::f32, singles({INFINITY}), [](u64, u64, u64) { return u64{0x7FFFFFFF}; });
  expect_float_reference("cos.approx.f32 %fd, %fa;", Out::f32, singles({-INFINITY}), [](u64, u64, u64) { return u64{0x7FFFFFFF}; });
}

TEST(PtxFloatApprox, TanhWithinTheRelativeBound) {
  // The ISA: maximum relative error 2^-11 (about); checked as 2^-10.
  const auto cases = singles({-20.0f, -3.0f, -1.0f, -0.5f, -1e-3f, 1e-3f, 0.25f, 0.5f, 1.0f, 2.0f, 5.0f, 20.0f});
  expect_close("tanh.approx.f32 %fd, %fa;", cases, [](double x, double) { return std::tanh(x); }, std::ldexp(1.0, -10), 0);
  expect_cases("tanh.approx.f32 %fd, %fa;", Out::f32,
               {{0x7F800000, 0, 0, 0x3F800000}, {0xFF800000, 0, 0, 0xBF800000}, {0, 0, 0, 0}, {0x80000000, 0, 0, 0x80000000}});
}

TEST(PtxFloatApprox, DivApproxAndFullWithinTwoUlps) {
  // div.approx.f32 and div.full.f32: maximum 2 ulp error (div.approx for |b| in [2^-126, 2^126]).
  std::vector<Case> cases;
  for (float a : {1.0f, -7.0f, 3e-10f, 1e10f, 0.1f})
    for (float b : {3.0f, -0.7f, 1e8f, 1e-8f, 2.0f}) cases.push_back({f32_bits(a), f32_bits(b), 0});
  auto quotient = [](double a, double b) { return a / b; };
  expect_close("div.approx.f32 %fd, %fa, %fb;", cases, quotient, kRel22, 0);
  expect_close("div.full.f32 %fd, %fa, %fb;", cases, quotient, kRel22, 0);
  expect_close("div.approx.ftz.f32 %fd, %fa, %fb;", cases, quotient, kRel22, 0);
  // div.full covers the full range: a divisor above 2^126 still gives the quotient.
  expect_close("div.full.f32 %fd, %fa, %fb;", {{f32_bits(1e38f), f32_bits(3e38f), 0}, {f32_bits(2e38f), f32_bits(1e38f), 0}},
               quotient, kRel22, 0);
}

}  // namespace
}  // namespace pkb::ptx_test
