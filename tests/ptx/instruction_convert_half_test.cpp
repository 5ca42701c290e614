// cvt between the 16-bit floats and integers, f64, and each other: int -> f16 rounding and
// overflow, f16 / bf16 -> int saturation and NaN, f64 -> f16 single rounding, f16 <-> bf16.
#include <climits>

#include "tests/ptx/float_reference.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

std::uint32_t nan_or(Format f, double v, bool toward_zero = false) { return std::isnan(v) ? 0x10000 : encode(f, v, toward_zero); }

// 16-bit results against `ref`; 0x10000 means any NaN of `f`.
void expect_half_results(const std::string& body, Format f, const std::vector<Case>& cases, const std::function<std::uint32_t(u64)>& ref) {
  const CaseRun run = run_cases(body, cases, Out::b16);
  ASSERT_EQ(run.fault, "") << body;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::uint32_t want = ref(cases[i].a);
    if (want == 0x10000) EXPECT_TRUE(is_nan_in(f, run.d[i])) << body << " a=" << hex(cases[i].a) << ": got " << hex(run.d[i]);
    else EXPECT_EQ(hex(run.d[i]), hex(want)) << body << " a=" << hex(cases[i].a);
  }
}

std::vector<Case> singles(const std::vector<u64>& values) {
  std::vector<Case> cases;
  for (u64 v : values) cases.push_back({v, 0, 0});
  return cases;
}

TEST(PtxCvtHalf, IntegerToF16RoundsAndOverflows) {
  const auto cases = singles({0, 1, 2049, 2051, 4097, 65504, 65519, 65520, 70000, 0xFFFFFFFF, 0x80000000, 0xFFFF8001, 12345});
  expect_half_results("cvt.rn.f16.s32 %d16, %a32;", kF16, cases,
                      [](u64 a) { return encode(kF16, static_cast<double>(static_cast<std::int32_t>(a))); });
  expect_half_results("cvt.rz.f16.s32 %d16, %a32;", kF16, cases,
                      [](u64 a) { return encode(kF16, static_cast<double>(static_cast<std::int32_t>(a)), true); });
  expect_half_results("cvt.rn.f16.u32 %d16, %a32;", kF16, cases, [](u64 a) { return encode(kF16, static_cast<double>(a & 0xFFFFFFFF)); });
  expect_half_results("cvt.rn.bf16.s32 %d16, %a32;", kBF16, cases,
                      [](u64 a) { return encode(kBF16, static_cast<double>(static_cast<std::int32_t>(a))); });
  // 2049 ties to 2048, 2051 to 2052; 65520 ties up to inf (.rz: 65504).
  expect_cases("cvt.rn.f16.s32 %d16, %a32;", Out::b16, {{2049, 0, 0, 0x6800}, {2051, 0, 0, 0x6802}, {65520, 0, 0, 0x7C00}});
  expect_cases("cvt.rz.f16.u32 %d16, %a32;", Out::b16, {{65520, 0, 0, 0x7BFF}});
}

TEST(PtxCvtHalf, F16AndBf16ToIntegerSaturateAndMapNaNToZero) {
  const auto cases = singles({0x3C00, 0x3E00, 0x4100, 0xC100, 0x3800, 0xB800, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x0001, 0x8000});
  for (const std::string round : {"rni", "rzi", "rmi", "rpi"}) {
    auto to_int = [=](double x, double lo, double hi) -> long double {
      if (std::isnan(x)) return 0;
      const double r = round == "rni" ? std::nearbyint(x) : round == "rzi" ? std::trunc(x) : round == "rmi" ? std::floor(x) : std::ceil(x);
      return std::max<long double>(lo, std::min<long double>(hi, r));
    };
    expect_reference("cvt." + round + ".s32.f16 %d32, %a16;", Out::b32, cases, [=](u64 a, u64, u64) {
      return static_cast<u64>(static_cast<std::int64_t>(to_int(decode(kF16, static_cast<std::uint32_t>(a)), INT_MIN, INT_MAX))) & 0xFFFFFFFF;
    });
    expect_reference("cvt." + round + ".u8.f16 %d16, %a16;", Out::b16, cases,
                     [=](u64 a, u64, u64) { return static_cast<u64>(to_int(decode(kF16, static_cast<std::uint32_t>(a)), 0, 255)); });
    expect_reference("cvt." + round + ".s16.bf16 %d16, %a16;", Out::b16, singles({0x3F80, 0x4020, 0xC020, 0x7F7F, 0xFF80, 0x7FC0, 0x4780}),
                     [=](u64 a, u64, u64) {
                       return static_cast<u64>(static_cast<std::int64_t>(to_int(decode(kBF16, static_cast<std::uint32_t>(a)), -32768, 32767))) & 0xFFFF;
                     });
  }
  // 2.5 -> 2 (even), -2.5 -> -2; 65504 -> 255 for u8; NaN -> 0.
  expect_cases("cvt.rni.s32.f16 %d32, %a16;", Out::b32, {{0x4100, 0, 0, 2}, {0xC100, 0, 0, 0xFFFFFFFE}, {0x7E00, 0, 0, 0}});
  expect_cases("cvt.rzi.u8.f16 %d16, %a16;", Out::b16, {{0x7BFF, 0, 0, 255}, {0xBC00, 0, 0, 0}});
}

TEST(PtxCvtHalf, F64ToF16RoundsOnce) {
  // 1 + 2^-11 + 2^-40 is just above the tie: up to 1 + 2^-10 (rounding to f32 first would lose it).
  const std::vector<double> values = {1.0 + 0x1p-11 + 0x1p-40, 1.0 + 0x1p-11, 65519.99, 65520.0, 0x1p-25, 0x1p-25 + 0x1p-60, -2.5, 0.1};
  std::vector<Case> cases;
  for (double v : values) cases.push_back({f64_bits(v), 0, 0});
  expect_half_results("cvt.rn.f16.f64 %d16, %da;", kF16, cases, [](u64 a) { return nan_or(kF16, f64_of(a)); });
  expect_half_results("cvt.rz.f16.f64 %d16, %da;", kF16, cases, [](u64 a) { return nan_or(kF16, f64_of(a), true); });
  expect_half_results("cvt.rn.bf16.f64 %d16, %da;", kBF16, cases, [](u64 a) { return nan_or(kBF16, f64_of(a)); });
  expect_cases("cvt.rn.f16.f64 %d16, %da;", Out::b16, {{f64_bits(1.0 + 0x1p-11 + 0x1p-40), 0, 0, 0x3C01}, {f64_bits(0x1p-25 + 0x1p-60), 0, 0, 0x0001}});
  // Exact widenings.
  expect_cases("cvt.f64.f16 %dd, %a16;", Out::f64, {{0x0001, 0, 0, f64_bits(0x1p-24)}, {0xFBFF, 0, 0, f64_bits(-65504.0)}});
  expect_cases("cvt.f64.bf16 %dd, %a16;", Out::f64, {{0x0001, 0, 0, f64_bits(0x1p-133)}, {0xC040, 0, 0, f64_bits(-3.0)}});
}

TEST(PtxCvtHalf, F16AndBf16ConvertToEachOther) {
  std::vector<Case> f16s, bf16s;
  for (u64 v = 0; v < 0x10000; v += 97) f16s.push_back({v, 0, 0}), bf16s.push_back({v, 0, 0});
  expect_half_results("cvt.rn.bf16.f16 %d16, %a16;", kBF16, f16s,
                      [](u64 a) { return nan_or(kBF16, decode(kF16, static_cast<std::uint32_t>(a))); });
  expect_half_results("cvt.rn.f16.bf16 %d16, %a16;", kF16, bf16s,
                      [](u64 a) { return nan_or(kF16, decode(kBF16, static_cast<std::uint32_t>(a))); });
  // f16 1 + 2^-8 + 2^-10 rounds up in bf16 (7 stored bits); bf16 1e10 overflows f16 to inf.
  expect_cases("cvt.rn.bf16.f16 %d16, %a16;", Out::b16, {{0x3C05, 0, 0, 0x3F81}});
  expect_cases("cvt.rn.f16.bf16 %d16, %a16;", Out::b16, {{0x5015, 0, 0, 0x7C00}});
}

}  // namespace
}  // namespace pkb::ptx_test
