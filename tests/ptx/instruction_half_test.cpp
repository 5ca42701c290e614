// Half-precision arithmetic on f16, f16x2, bf16 and bf16x2 (add sub mul fma, neg abs, min max with
// NaN, .ftz .sat, ex2.approx): exact results rounded once from the exact value; element 0 is low.
#include "tests/ptx/float_reference.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

const std::vector<u64> kF16Values = {0x3C00, 0x1000, 0xBC00, 0x2E66, 0x7BFF, 0xC000, 0x0001, 0x0400, 0x4200,
                               0x3555, 0x8000, 0x0000, 0x7C00, 0xFC00, 0x7E00, 0x63D0, 0x3C01, 0x8401};
const std::vector<u64> kBF16Values = {0x3F80, 0x3B80, 0xBF80, 0x3DCD, 0x7F7F, 0xC000, 0x0001, 0x0080, 0x4040,
                                0x3EAB, 0x8000, 0x0000, 0x7F80, 0xFF80, 0x7FC0, 0x447A, 0x3F81, 0x8081};

// One 16-bit result of `op` on the elements x, y, z of `format`, rounded to nearest even; NaN in
// gives any NaN out (marked by returning 0x10000, checked below).
std::uint32_t half_op(Format f, char op, std::uint32_t x, std::uint32_t y, std::uint32_t z = 0) {
  const double a = decode(f, x), b = decode(f, y), c = decode(f, z);
  const double r = op == '+' ? a + b : op == '-' ? a - b : op == '*' ? a * b : std::fma(a, b, c);
  return std::isnan(r) ? 0x10000 : encode(f, r);
}

// Checks 16-bit results (or both halves of 32-bit ones) against `ref(a, b, c)`; 0x10000 in a
// half of the reference means any NaN.
template <class Ref>
void expect_halves(const std::string& body, Out out, Format f, const std::vector<Case>& cases, Ref ref) {
  const CaseRun run = run_cases(body, cases, out);
  ASSERT_EQ(run.fault, "") << body;
  const int halves = out == Out::b32 ? 2 : 1;
  for (std::size_t i = 0; i < cases.size(); ++i)
    for (int h = 0; h < halves; ++h) {
      const auto part = [&](u64 v) { return static_cast<std::uint32_t>(v >> (16 * h)) & 0xFFFF; };
      const std::uint32_t want = ref(part(cases[i].a), part(cases[i].b), part(cases[i].c));
      const std::uint32_t got = part(run.d[i]);
      const std::string where = body + "\n  element " + std::to_string(h) + " of a=" + hex(cases[i].a) +
                                " b=" + hex(cases[i].b) + " c=" + hex(cases[i].c);
      if (want == 0x10000) EXPECT_TRUE(is_nan_in(f, got)) << where << ": got " << hex(got) << ", want NaN";
      else EXPECT_EQ(hex(got), hex(want)) << where;
    }
}

// Pairs of values, and the same packed two to a word: element 0 from the first list entry, element 1
// from a rotated one, so the halves differ.
std::vector<Case> packed(const std::vector<u64>& values) {
  std::vector<Case> cases = pairs(values);
  const std::size_t n = values.size();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    cases[i].a |= values[(i / n + 3) % n] << 16;
    cases[i].b |= values[(i + 5) % n] << 16;
    cases[i].c = values[(i * 7) % n] | values[(i + 1) % n] << 16;
  }
  return cases;
}

TEST(PtxHalf, F16AndF16x2ArithmeticRoundsToNearestEven) {
  const auto cases = packed(kF16Values);
  for (char op : {'+', '-', '*'}) {
    const std::string name = op == '+' ? "add" : op == '-' ? "sub" : "mul";
    auto ref = [=](std::uint32_t a, std::uint32_t b, std::uint32_t) { return half_op(kF16, op, a, b); };
    expect_halves(name + ".rn.f16 %d16, %a16, %b16;", Out::b16, kF16, cases, ref);
    expect_halves(name + ".f16 %d16, %a16, %b16;", Out::b16, kF16, cases, ref);
    expect_halves(name + ".rn.f16x2 %d32, %a32, %b32;", Out::b32, kF16, cases, ref);
  }
  auto fma = [](std::uint32_t a, std::uint32_t b, std::uint32_t c) { return half_op(kF16, 'f', a, b, c); };
  expect_halves("fma.rn.f16 %d16, %a16, %b16, %c16;", Out::b16, kF16, cases, fma);
  expect_halves("fma.rn.f16x2 %d32, %a32, %b32, %c32;", Out::b32, kF16, cases, fma);
  // 1 + 2^-11 is a tie: 1.0; 1 + 1.5 * 2^-11 rounds up to 1 + 2^-10; 65504 + 16 ties up to inf.
  expect_cases("add.rn.f16 %d16, %a16, %b16;", Out::b16, {{0x3C00, 0x1000, 0, 0x3C00}, {0x3C00, 0x1200, 0, 0x3C01}, {0x7BFF, 0x4C00, 0, 0x7C00}});
  // Element 0 is the low half: (1 + 2, 3 - 0.5) = (3, 2.5) and (1 * 2, 3 * 0.5) = (2, 1.5).
  expect_cases("add.rn.f16x2 %d32, %a32, %b32;", Out::b32, {{0x42003C00, 0xB8004000, 0, 0x41004200}});
  expect_cases("mul.rn.f16x2 %d32, %a32, %b32;", Out::b32, {{0x42003C00, 0x38004000, 0, 0x3E004000}});
}

TEST(PtxHalf, Bf16AndBf16x2ArithmeticRoundsToNearestEven) {
  const auto cases = packed(kBF16Values);
  for (char op : {'+', '-', '*'}) {
    const std::string name = op == '+' ? "add" : op == '-' ? "sub" : "mul";
    auto ref = [=](std::uint32_t a, std::uint32_t b, std::uint32_t) { return half_op(kBF16, op, a, b); };
    expect_halves(name + ".rn.bf16 %d16, %a16, %b16;", Out::b16, kBF16, cases, ref);
    expect_halves(name + ".rn.bf16x2 %d32, %a32, %b32;", Out::b32, kBF16, cases, ref);
  }
  auto fma = [](std::uint32_t a, std::uint32_t b, std::uint32_t c) { return half_op(kBF16, 'f', a, b, c); };
  expect_halves("fma.rn.bf16 %d16, %a16, %b16, %c16;", Out::b16, kBF16, cases, fma);
  expect_halves("fma.rn.bf16x2 %d32, %a32, %b32, %c32;", Out::b32, kBF16, cases, fma);
  // 1 + 2^-8 ties to 1.0; (1 + 2^-7) + 2^-8 ties to 1 + 2^-6 (even).
  expect_cases("add.rn.bf16 %d16, %a16, %b16;", Out::b16, {{0x3F80, 0x3B80, 0, 0x3F80}, {0x3F81, 0x3B80, 0, 0x3F82}});
  expect_cases("fma.rn.bf16x2 %d32, %a32, %b32, %c32;", Out::b32, {{0x40403F80, 0x40004000, 0x3F80BF80, 0x40E03F80}});
}

TEST(PtxHalf, FtzAndSatOnF16) {
  // 0x0001 (2^-24) is subnormal: .ftz flushes it, so x + 0 gives +0.
  expect_cases("add.ftz.f16 %d16, %a16, %b16;", Out::b16, {{0x0001, 0x0000, 0, 0x0000}, {0x3C00, 0x3C00, 0, 0x4000}});
  expect_cases("add.f16 %d16, %a16, %b16;", Out::b16, {{0x0001, 0x0000, 0, 0x0001}});
  expect_cases("mul.ftz.f16x2 %d32, %a32, %b32;", Out::b32, {{0x04000400, 0x38003800, 0, 0x00000000}});
  // .sat clamps to [0, 1] and NaN to +0.
  expect_cases("add.sat.f16 %d16, %a16, %b16;", Out::b16, {{0x3C00, 0x3C00, 0, 0x3C00}, {0xBC00, 0x3800, 0, 0x0000}, {0x7E00, 0x3C00, 0, 0x0000}});
  expect_cases("fma.rn.sat.f16x2 %d32, %a32, %b32, %c32;", Out::b32, {{0x40003800, 0x40003800, 0x00000000, 0x3C003400}});
}

TEST(PtxHalf, FmaReluClampsNegativeResultsToZero) {
  // fma.rn.relu: max(result, +0); a NaN result stays NaN (canonical).
  expect_cases("fma.rn.relu.f16x2 %d32, %a32, %b32, %c32;", Out::b32, {{0x40003C00, 0xC0003C00, 0x00003C00, 0x00004000}});
  expect_cases("fma.rn.relu.bf16x2 %d32, %a32, %b32, %c32;", Out::b32, {{0x40003F80, 0xC0003F80, 0x00003F80, 0x00004000}});
  expect_cases("fma.rn.relu.f16 %d16, %a16, %b16, %c16;", Out::b16, {{0xBC00, 0x3C00, 0x0000, 0x0000}});
  const CaseRun nan = run_cases("fma.rn.relu.f16 %d16, %a16, %b16, %c16;", {{0x7E00, 0x3C00, 0x3C00}}, Out::b16);
  EXPECT_TRUE(is_nan_in(kF16, nan.d[0])) << hex(nan.d[0]);
}

TEST(PtxHalf, NegAbsFlipOrClearTheSignBit) {
  expect_cases("neg.f16 %d16, %a16;", Out::b16, {{0x3C00, 0, 0, 0xBC00}, {0x0000, 0, 0, 0x8000}});
  expect_cases("abs.f16 %d16, %a16;", Out::b16, {{0xBC00, 0, 0, 0x3C00}, {0x8000, 0, 0, 0x0000}});
  expect_cases("neg.f16x2 %d32, %a32;", Out::b32, {{0xBC003C00, 0, 0, 0x3C00BC00}});
  expect_cases("abs.f16x2 %d32, %a32;", Out::b32, {{0xC0008001, 0, 0, 0x40000001}});
  expect_cases("neg.bf16 %d16, %a16;", Out::b16, {{0x3F80, 0, 0, 0xBF80}});
  expect_cases("abs.bf16x2 %d32, %a32;", Out::b32, {{0xBF80C040, 0, 0, 0x3F804040}});
  expect_cases("neg.bf16x2 %d32, %a32;", Out::b32, {{0x3F80C040, 0, 0, 0xBF804040}});
}

TEST(PtxHalf, MinMaxReturnTheNumberOverNaN) {
  auto pick = [](Format f, bool is_min, bool nan_wins) {
    return [=](std::uint32_t a, std::uint32_t b, std::uint32_t) -> std::uint32_t {
      const double x = decode(f, a), y = decode(f, b);
      if (std::isnan(x) && std::isnan(y)) return 0x10000;
      if (nan_wins && (std::isnan(x) || std::isnan(y))) return 0x10000;
      if (std::isnan(x)) return b;
      if (std::isnan(y)) return a;
      if (x == 0 && y == 0) return std::signbit(x) == is_min ? a : b;
      return (is_min ? x < y : x > y) ? a : b;
    };
  };
  const auto f16 = packed({0x3C00, 0xC000, 0x8000, 0x0000, 0x7C00, 0xFC00, 0x7E00, 0x0001});
  const auto bf16 = packed({0x3F80, 0xC000, 0x8000, 0x0000, 0x7F80, 0xFF80, 0x7FC0, 0x0001});
  expect_halves("min.f16 %d16, %a16, %b16;", Out::b16, kF16, f16, pick(kF16, true, false));
  expect_halves("max.f16x2 %d32, %a32, %b32;", Out::b32, kF16, f16, pick(kF16, false, false));
  expect_halves("min.NaN.f16x2 %d32, %a32, %b32;", Out::b32, kF16, f16, pick(kF16, true, true));
  expect_halves("min.bf16 %d16, %a16, %b16;", Out::b16, kBF16, bf16, pick(kBF16, true, false));
  expect_halves("max.bf16x2 %d32, %a32, %b32;", Out::b32, kBF16, bf16, pick(kBF16, false, false));
  expect_halves("max.NaN.bf16 %d16, %a16, %b16;", Out::b16, kBF16, bf16, pick(kBF16, false, true));
  // min.f16x2(NaN, 1) element-wise: 1 for element 0, and -2 vs 3 gives -2 for element 1.
  expect_cases("min.f16x2 %d32, %a32, %b32;", Out::b32, {{0xC0007E00, 0x42003C00, 0, 0xC0003C00}});
}

TEST(PtxHalf, Ex2ApproxF16x2WithinTheRelativeBound) {
  // The ISA: maximum relative error 2^-9.9 for ex2.approx.f16 / f16x2 (checked as 2^-9).
  std::vector<Case> cases;
  const std::vector<u64> inputs = {0xC900, 0xBC00, 0xB800, 0x0000, 0x3400, 0x3C00, 0x4100, 0x4900, 0x4B80};
  for (u64 a : inputs)
    for (u64 b : inputs) cases.push_back({a | b << 16, 0, 0});
  for (const std::string body : {"ex2.approx.f16x2 %d32, %a32;", "ex2.approx.ftz.f16x2 %d32, %a32;"}) {
    const CaseRun run = run_cases(body, cases, Out::b32);
    ASSERT_EQ(run.fault, "") << body;
    for (std::size_t i = 0; i < cases.size(); ++i)
      for (int h = 0; h < 2; ++h) {
        const double x = decode(kF16, static_cast<std::uint32_t>(cases[i].a >> (16 * h)) & 0xFFFF);
        const double got = decode(kF16, static_cast<std::uint32_t>(run.d[i] >> (16 * h)) & 0xFFFF);
        EXPECT_LE(std::fabs(got - std::exp2(x)), std::ldexp(std::exp2(x), -9)) << body << " of " << x << ": got " << got;
      }
  }
  expect_cases("ex2.approx.f16 %d16, %a16;", Out::b16, {{0xFC00, 0, 0, 0x0000}, {0x7C00, 0, 0, 0x7C00}});
}

TEST(PtxHalf, TanhAndBf16Ex2ApproxWithinLooseBounds) {
  // Loose bounds (the ISA states about 2^-10.7 for tanh.approx.f16 and 2^-7 for the bf16 ex2):
  // relative 2^-8 plus absolute 2^-10 for f16, relative 2^-6 for bf16.
  struct Op {
    std::string body;
    Format f;
    double (*fn)(double);
    double rel, abs;
  };
  const std::vector<Op> ops = {
      {"tanh.approx.f16x2 %d32, %a32;", kF16, [](double x) { return std::tanh(x); }, 0x1p-8, 0x1p-10},
      {"tanh.approx.f16 %d16, %a16;", kF16, [](double x) { return std::tanh(x); }, 0x1p-8, 0x1p-10},
      {"tanh.approx.bf16x2 %d32, %a32;", kBF16, [](double x) { return std::tanh(x); }, 0x1p-6, 0x1p-8},
      {"ex2.approx.ftz.bf16x2 %d32, %a32;", kBF16, [](double x) { return std::exp2(x); }, 0x1p-6, 0},
  };
  for (const Op& op : ops) {
    const bool packed = op.body.find("x2") != std::string::npos;
    std::vector<Case> cases;
    for (double x : {-8.0, -2.0, -0.75, -0.125, 0.0, 0.1, 0.5, 1.0, 3.0, 6.0}) {
      const u64 bits = encode(op.f, x);
      cases.push_back({packed ? bits | encode(op.f, -x / 2) << 16 : bits, 0, 0});
    }
    const CaseRun run = run_cases(op.body, cases, packed ? Out::b32 : Out::b16);
    ASSERT_EQ(run.fault, "") << op.body;
    for (std::size_t i = 0; i < cases.size(); ++i)
      for (int h = 0; h < (packed ? 2 : 1); ++h) {
        const double x = decode(op.f, static_cast<std::uint32_t>(cases[i].a >> (16 * h)) & 0xFFFF);
        const double got = decode(op.f, static_cast<std::uint32_t>(run.d[i] >> (16 * h)) & 0xFFFF);
        EXPECT_LE(std::fabs(got - op.fn(x)), op.rel * std::fabs(op.fn(x)) + op.abs) << op.body << " of " << x << ": got " << got;
      }
  }
}

}  // namespace
}  // namespace pkb::ptx_test
