// cvt to and from the narrow float formats: f16 and bf16 (.rn ties to even, .rz, .satfinite,
// .relu, the x2 packings with a in the high half), e4m3x2 / e5m2x2 both ways, and tf32 (.rna).
#include <cfloat>

#include "tests/ptx/float_reference.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

// f32 inputs around the f16 / bf16 / f8 rounding boundaries, as bits.
const std::vector<u64> kNarrowInputs = {
    0x3F800000, 0x3F801000, 0x3F803000, 0x3F801001, 0x477FEF00, 0x477FF000, 0x477FFFFF, 0x47800000,
    0x33800000, 0x33000000, 0x33400000, 0x387FC000, 0x38800000, 0xC0490FDB, 0x3DCCCCCD, 0x7F7FFFFF,
    0x7F800000, 0xFF800000, 0x00000001, 0x80000000, 0x3F808000, 0x3F818000, 0x3F808001, 0x3F80FFFF,
    0x43E00000, 0x43F00000, 0x43FA0000, 0xC3FA0000, 0x3B000000, 0x3A800000, 0x47600000, 0x47700000,
    0x49742400, 0x3F880000, 0x3F980000, 0xBF900000, 0x7FC00000};

std::vector<Case> single_cases() {
  std::vector<Case> cases;
  for (u64 v : kNarrowInputs) cases.push_back({v, 0, 0});
  return cases;
}

// .relu of -0 is not pinned down by the ISA: cases without it.
std::vector<Case> without_negative_zero(std::vector<Case> cases) {
  std::vector<Case> out;
  for (const Case& k : cases)
    if (k.a != 0x80000000 && k.b != 0x80000000) out.push_back(k);
  return out;
}

// encode() of the f32 in `bits`, with NaN mapped to the marker 0x10000 (any NaN passes).
std::uint32_t narrow(Format f, u64 bits, bool toward_zero = false, bool satfinite = false, bool relu = false) {
  const double v = f32_of(bits);
  if (std::isnan(v)) return 0x10000;
  if (relu && v < 0) return 0;
  return encode(f, v, toward_zero, satfinite);
}

// Checks a result of `width` bits made of fields of `field` bits against `ref` (one value per
// field, low field first); a field whose reference is 0x10000 must be a NaN of `f`.
void expect_fields(const std::string& body, Out out, Format f, int field, int fields, const std::vector<Case>& cases,
                   const std::function<std::uint32_t(const Case&, int)>& ref) {
  const CaseRun run = run_cases(body, cases, out);
  ASSERT_EQ(run.fault, "") << body;
  const u64 mask = (1ull << field) - 1;
  for (std::size_t i = 0; i < cases.size(); ++i)
    for (int k = 0; k < fields; ++k) {
      const std::uint32_t want = ref(cases[i], k);
      const auto got = static_cast<std::uint32_t>((run.d[i] >> (field * k)) & mask);
      const std::string where = body + "\n  field " + std::to_string(k) + " of a=" + hex(cases[i].a) + " b=" + hex(cases[i].b);
      if (want == 0x10000) EXPECT_TRUE(is_nan_in(f, got)) << where << ": got " << hex(got) << ", want NaN";
      else EXPECT_EQ(hex(got), hex(want)) << where;
    }
}

TEST(PtxCvtNarrow, F32ToF16RoundsSaturatesAndPacks) {
  const auto cases = single_cases();
  expect_fields("cvt.rn.f16.f32 %d16, %fa;", Out::b16, kF16, 16, 1, cases, [](const Case& k, int) { return narrow(kF16, k.a); });
  expect_fields("cvt.rz.f16.f32 %d16, %fa;", Out::b16, kF16, 16, 1, cases, [](const Case& k, int) { return narrow(kF16, k.a, true); });
  expect_fields("cvt.rn.satfinite.f16.f32 %d16, %fa;", Out::b16, kF16, 16, 1, cases,
                [](const Case& k, int) { return narrow(kF16, k.a, false, true); });
  expect_fields("cvt.rn.relu.f16.f32 %d16, %fa;", Out::b16, kF16, 16, 1, without_negative_zero(cases),
                [](const Case& k, int) { return narrow(kF16, k.a, false, false, true); });
  // 65519 -> 65504; 65520 ties up to inf (.satfinite: 65504); 1 + 2^-11 ties to 1; 1 + 3 * 2^-11
  // ties to 1 + 2^-9 (even); 2^-25 ties to 0, 3 * 2^-26 rounds to the least subnormal 2^-24.
  expect_cases("cvt.rn.f16.f32 %d16, %fa;", Out::b16,
               {{0x477FEF00, 0, 0, 0x7BFF}, {0x477FF000, 0, 0, 0x7C00}, {0x3F801000, 0, 0, 0x3C00}, {0x3F803000, 0, 0, 0x3C02},
                {0x33000000, 0, 0, 0x0000}, {0x33400000, 0, 0, 0x0001}, {0x33800000, 0, 0, 0x0001}});
  expect_cases("cvt.rn.satfinite.f16.f32 %d16, %fa;", Out::b16, {{0x477FF000, 0, 0, 0x7BFF}, {0xFF800000, 0, 0, 0xFBFF}});
  expect_cases("cvt.rz.f16.f32 %d16, %fa;", Out::b16, {{0x477FF000, 0, 0, 0x7BFF}});
  // cvt.rn.f16x2.f32 d, a, b: a goes to the high half.
  std::vector<Case> two;
  for (std::size_t i = 0; i < kNarrowInputs.size(); ++i) two.push_back({kNarrowInputs[i], kNarrowInputs[(i + 7) % kNarrowInputs.size()], 0});
  expect_fields("cvt.rn.f16x2.f32 %d32, %fa, %fb;", Out::b32, kF16, 16, 2, two,
                [](const Case& k, int h) { return narrow(kF16, h == 1 ? k.a : k.b); });
  expect_cases("cvt.rn.f16x2.f32 %d32, %fa, %fb;", Out::b32, {{f32_bits(1.0f), f32_bits(2.0f), 0, 0x3C004000}});
}

TEST(PtxCvtNarrow, F32ToBf16RoundsAndPacks) {
  const auto cases = single_cases();
  expect_fields("cvt.rn.bf16.f32 %d16, %fa;", Out::b16, kBF16, 16, 1, cases, [](const Case& k, int) { return narrow(kBF16, k.a); });
  expect_fields("cvt.rz.bf16.f32 %d16, %fa;", Out::b16, kBF16, 16, 1, cases, [](const Case& k, int) { return narrow(kBF16, k.a, true); });
  expect_fields("cvt.rn.satfinite.bf16.f32 %d16, %fa;", Out::b16, kBF16, 16, 1, cases,
                [](const Case& k, int) { return narrow(kBF16, k.a, false, true); });
  // 1 + 2^-8 ties to 1; 1 + 2^-7 + 2^-8 ties to 1 + 2^-6; one more bit rounds up; FLT_MAX rounds
  // up to inf (.rz keeps 0x7f7f).
  expect_cases("cvt.rn.bf16.f32 %d16, %fa;", Out::b16,
               {{0x3F808000, 0, 0, 0x3F80}, {0x3F818000, 0, 0, 0x3F82}, {0x3F808001, 0, 0, 0x3F81}, {0x7F7FFFFF, 0, 0, 0x7F80}});
  expect_cases("cvt.rz.bf16.f32 %d16, %fa;", Out::b16, {{0x3F80FFFF, 0, 0, 0x3F80}, {0x7F7FFFFF, 0, 0, 0x7F7F}});
  // cvt.rn.bf16x2.f32 d, a, b: a in the high half.
  std::vector<Case> two;
  for (std::size_t i = 0; i < kNarrowInputs.size(); ++i) two.push_back({kNarrowInputs[i], kNarrowInputs[(i + 3) % kNarrowInputs.size()], 0});
  expect_fields("cvt.rn.bf16x2.f32 %d32, %fa, %fb;", Out::b32, kBF16, 16, 2, two,
                [](const Case& k, int h) { return narrow(kBF16, h == 1 ? k.a : k.b); });
  expect_fields("cvt.rz.relu.bf16x2.f32 %d32, %fa, %fb;", Out::b32, kBF16, 16, 2, without_negative_zero(two),
                [](const Case& k, int h) { return narrow(kBF16, h == 1 ? k.a : k.b, true, false, true); });
  expect_cases("cvt.rn.bf16x2.f32 %d32, %fa, %fb;", Out::b32, {{f32_bits(1.0f), f32_bits(-2.0f), 0, 0x3F80C000}});
}

TEST(PtxCvtNarrow, ToAndFromHalvesExactly) {
  // f16 -> f32 and bf16 -> f32 are exact, subnormals included.
  std::vector<Case> all;
  for (u64 v = 0; v < 0x10000; v += 13) all.push_back({v, 0, 0});
  for (u64 v : {0x0001, 0x03FF, 0x8001, 0x7C00, 0xFC00, 0x7BFF, 0x0400}) all.push_back({v, 0, 0});
  expect_float_reference("cvt.f32.f16 %fd, %a16;", Out::f32, all,
                         [](u64 a, u64, u64) { return f32_bits(static_cast<float>(decode(kF16, static_cast<std::uint32_t>(a)))); });
  expect_float_reference("cvt.f32.bf16 %fd, %a16;", Out::f32, all,
                         [](u64 a, u64, u64) { return f32_bits(static_cast<float>(decode(kBF16, static_cast<std::uint32_t>(a)))); });
  expect_cases("cvt.f32.f16 %fd, %a16;", Out::f32, {{0x0001, 0, 0, 0x33800000}, {0x8200, 0, 0, 0xB8000000}});
  expect_cases("cvt.f64.f16 %dd, %a16;", Out::f64, {{0x03FF, 0, 0, f64_bits(1023 * 0x1p-24)}});
}

TEST(PtxCvtNarrow, F32ToFp8SaturatesAndPacksAHigh) {
  // cvt.rn.satfinite.e4m3x2.f32 d, a, b: a in bits 15:8, b in 7:0. e4m3 has no inf; 448 is the
  // largest, so 500 -> 448 (0x7e); 1.0 is 0x38.
  std::vector<Case> two;
  for (std::size_t i = 0; i < kNarrowInputs.size(); ++i) two.push_back({kNarrowInputs[i], kNarrowInputs[(i + 5) % kNarrowInputs.size()], 0});
  expect_fields("cvt.rn.satfinite.e4m3x2.f32 %d16, %fa, %fb;", Out::b16, kE4M3, 8, 2, two,
                [](const Case& k, int h) { return narrow(kE4M3, h == 1 ? k.a : k.b, false, true); });
  expect_fields("cvt.rn.satfinite.e5m2x2.f32 %d16, %fa, %fb;", Out::b16, kE5M2, 8, 2, two,
                [](const Case& k, int h) { return narrow(kE5M2, h == 1 ? k.a : k.b, false, true); });
  expect_fields("cvt.rn.satfinite.relu.e4m3x2.f32 %d16, %fa, %fb;", Out::b16, kE4M3, 8, 2, without_negative_zero(two),
                [](const Case& k, int h) { return narrow(kE4M3, h == 1 ? k.a : k.b, false, true, true); });
  expect_cases("cvt.rn.satfinite.e4m3x2.f32 %d16, %fa, %fb;", Out::b16,
               {{f32_bits(1.0f), f32_bits(500.0f), 0, 0x387E}, {f32_bits(-500.0f), f32_bits(448.0f), 0, 0xFE7E},
                {f32_bits(1.0625f), f32_bits(1.1875f), 0, 0x383A}, {f32_bits(0x1p-9f), f32_bits(0x1p-10f), 0, 0x0100}});
  expect_cases("cvt.rn.satfinite.e5m2x2.f32 %d16, %fa, %fb;", Out::b16,
               {{f32_bits(1.0f), f32_bits(1e6f), 0, 0x3C7B}, {f32_bits(57344.0f), f32_bits(-1.5f), 0, 0x7BBE}});
  // From f16x2: the high f16 goes to the high byte.
  expect_cases("cvt.rn.satfinite.e4m3x2.f16x2 %d16, %a32;", Out::b16, {{0x3C005F00, 0, 0, 0x387E}});
}

TEST(PtxCvtNarrow, Fp8x2ToF16x2IsExactAndKeepsTheOrder) {
  // Every byte pair: the high byte converts to the high f16.
  std::vector<Case> cases;
  for (u64 v = 0; v < 256; ++v) cases.push_back({v | (((v * 37 + 11) & 0xFF) << 8), 0, 0});
  expect_fields("cvt.rn.f16x2.e4m3x2 %d32, %a16;", Out::b32, kF16, 16, 2, cases, [](const Case& k, int h) -> std::uint32_t {
    const double v = decode(kE4M3, static_cast<std::uint32_t>(k.a >> (8 * h)) & 0xFF);
    return std::isnan(v) ? 0x10000 : encode(kF16, v);
  });
  expect_fields("cvt.rn.f16x2.e5m2x2 %d32, %a16;", Out::b32, kF16, 16, 2, cases, [](const Case& k, int h) -> std::uint32_t {
    const double v = decode(kE5M2, static_cast<std::uint32_t>(k.a >> (8 * h)) & 0xFF);
    return std::isnan(v) ? 0x10000 : encode(kF16, v);
  });
  // e4m3 0x38 = 1.0, 0x7e = 448 = f16 0x5f00.
  expect_cases("cvt.rn.f16x2.e4m3x2 %d32, %a16;", Out::b32, {{0x387E, 0, 0, 0x3C005F00}, {0x0001, 0, 0, 0x00001800}});
}

TEST(PtxCvtNarrow, Tf32RoundsToNearestAwayAndClearsTheLow13Bits) {
  // tf32 keeps 10 mantissa bits: .rna rounds ties away from zero.
  expect_cases("cvt.rna.tf32.f32 %d32, %fa;", Out::b32,
               {{0x3F801000, 0, 0, 0x3F802000}, {0x3F800FFF, 0, 0, 0x3F800000}, {0xBF803000, 0, 0, 0xBF804000},
                {0x3F801001, 0, 0, 0x3F802000}, {0x3F800000, 0, 0, 0x3F800000}});
}

}  // namespace
}  // namespace pkb::ptx_test
