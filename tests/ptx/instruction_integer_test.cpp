// Integer arithmetic (add sub with .sat and carry chains, mul mad mul24 mad24 sad div rem abs neg
// min max dp4a) against reference functions written from the PTX ISA's pseudocode, over edge values.
#include "tests/ptx/instruction_cases.h"

namespace pkb::ptx_test {
namespace {

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;
using u64 = std::uint64_t;
using i64 = std::int64_t;

const std::vector<u64> k32 = {0,          1,          2,          5,          7,          31,
                              32,         0x00800000, 0x00FFFFFF, 0x12345678, 0x7FFFFFFF, 0x80000000,
                              0x80000001, 0xDEADBEEF, 0xFFFFFFF9, 0xFFFFFFFE, 0xFFFFFFFF};
const std::vector<u64> k64 = {0,
                              1,
                              3,
                              0xFFFFFFFF,
                              0x100000000,
                              0x123456789ABCDEF0,
                              0x7FFFFFFFFFFFFFFF,
                              0x8000000000000000,
                              0xFEDCBA9876543210,
                              0xFFFFFFFFFFFFFFFD,
                              0xFFFFFFFFFFFFFFFF};

u64 u32(u64 x) { return x & 0xFFFFFFFFull; }
i64 s32(u64 x) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(x)); }
i64 s16(u64 x) { return static_cast<std::int16_t>(static_cast<std::uint16_t>(x)); }
i64 s64(u64 x) { return static_cast<i64>(x); }
i64 s24(u64 x) { return (x & 0x800000) ? static_cast<i64>(x & 0xFFFFFF) - 0x1000000 : static_cast<i64>(x & 0xFFFFFF); }
u64 clamp32(i64 x) { return u32(static_cast<u64>(x < INT32_MIN ? INT32_MIN : x > INT32_MAX ? INT32_MAX : x)); }

// Cases with a third operand that varies with a and b.
std::vector<Case> triples(const std::vector<u64>& values) {
  std::vector<Case> cases = pairs(values);
  for (Case& k : cases) k.c = (k.a * 0x9E3779B97F4A7C15ull) ^ (k.b << 7) ^ 0xF0F0F0F0F0F0F0F0ull;
  return cases;
}

std::vector<Case> nonzero_b(std::vector<Case> cases, u64 mask) {
  std::vector<Case> out;
  for (const Case& k : cases)
    if (k.b & mask) out.push_back(k);
  return out;
}

TEST(PtxInteger, AddAndSubWrapAround) {
  expect_reference("add.u32 %d32, %a32, %b32;", Out::b32, pairs(k32), [](u64 a, u64 b, u64) { return u32(a + b); });
  expect_reference("add.s32 %d32, %a32, %b32;", Out::b32, pairs(k32), [](u64 a, u64 b, u64) { return u32(a + b); });
  expect_reference("sub.s32 %d32, %a32, %b32;", Out::b32, pairs(k32), [](u64 a, u64 b, u64) { return u32(a - b); });
  expect_reference("add.s64 %d, %a, %b;", Out::b64, pairs(k64), [](u64 a, u64 b, u64) { return a + b; });
  expect_reference("sub.u64 %d, %a, %b;", Out::b64, pairs(k64), [](u64 a, u64 b, u64) { return a - b; });
  expect_reference("add.u16 %d16, %a16, %b16;", Out::b16, pairs(k32), [](u64 a, u64 b, u64) { return (a + b) & 0xFFFF; });
  expect_reference("sub.s16 %d16, %a16, %b16;", Out::b16, pairs(k32), [](u64 a, u64 b, u64) { return (a - b) & 0xFFFF; });
}

TEST(PtxInteger, AddSatAndSubSatClampToTheS32Range) {
  expect_reference("add.sat.s32 %d32, %a32, %b32;", Out::b32, pairs(k32),
                   [](u64 a, u64 b, u64) { return clamp32(s32(a) + s32(b)); });
  expect_reference("sub.sat.s32 %d32, %a32, %b32;", Out::b32, pairs(k32),
                   [](u64 a, u64 b, u64) { return clamp32(s32(a) - s32(b)); });
  // Two exact cases: INT_MAX + 1 stays INT_MAX, INT_MIN + (-1) stays INT_MIN.
  expect_cases("add.sat.s32 %d32, %a32, %b32;", Out::b32,
               {{0x7FFFFFFF, 1, 0, 0x7FFFFFFF}, {0x80000000, 0xFFFFFFFF, 0, 0x80000000}, {5, 0xFFFFFFF9, 0, 0xFFFFFFFE}});
}

// A 64-bit add and subtract from 32-bit halves: add.cc / addc.cc / addc and sub.cc / subc.cc /
// subc; the last addc (subc) of 0, 0 reads the carry (borrow) out of bit 63.
const char* const kAdd64 = R"(
  .reg .b32 %alo, %ahi, %blo, %bhi, %lo, %hi;
  mov.b64 {%alo, %ahi}, %a;
  mov.b64 {%blo, %bhi}, %b;
  add.cc.u32 %lo, %alo, %blo;
  addc.cc.u32 %hi, %ahi, %bhi;
  addc.u32 %d32, 0, 0;
  mov.b64 %t, {%lo, %hi};
)";
const char* const kSub64 = R"(
  .reg .b32 %alo, %ahi, %blo, %bhi, %lo, %hi;
  mov.b64 {%alo, %ahi}, %a;
  mov.b64 {%blo, %bhi}, %b;
  sub.cc.u32 %lo, %alo, %blo;
  subc.cc.u32 %hi, %ahi, %bhi;
  subc.u32 %d32, 0, 0;
  mov.b64 %t, {%lo, %hi};
)";

TEST(PtxInteger, CarryChainBuildsA64BitAddFromHalves) {
  expect_reference(std::string(kAdd64) + "mov.b64 %d, %t;", Out::b64, pairs(k64), [](u64 a, u64 b, u64) { return a + b; });
  expect_reference(kAdd64, Out::b32, pairs(k64), [](u64 a, u64 b, u64) -> u64 { return a + b < a ? 1 : 0; });
}

TEST(PtxInteger, BorrowChainBuildsA64BitSubtractFromHalves) {
  expect_reference(std::string(kSub64) + "mov.b64 %d, %t;", Out::b64, pairs(k64), [](u64 a, u64 b, u64) { return a - b; });
  expect_reference(kSub64, Out::b32, pairs(k64), [](u64 a, u64 b, u64) -> u64 { return a < b ? 0xFFFFFFFF : 0; });
}

TEST(PtxInteger, MadCarryChainAddsA64BitAddendToA32x32Product) {
  expect_reference(R"(
    .reg .b32 %clo, %chi, %lo, %hi;
    mov.b64 {%clo, %chi}, %c;
    mad.lo.cc.u32 %lo, %a32, %b32, %clo;
    madc.hi.u32 %hi, %a32, %b32, %chi;
    mov.b64 %d, {%lo, %hi};
  )", Out::b64, triples(k32), [](u64 a, u64 b, u64 c) { return u32(a) * u32(b) + c; });
}

TEST(PtxInteger, MulLoHiAndWide) {
  const auto p32 = pairs(k32);
  expect_reference("mul.lo.s32 %d32, %a32, %b32;", Out::b32, p32, [](u64 a, u64 b, u64) { return u32(a * b); });
  expect_reference("mul.hi.s32 %d32, %a32, %b32;", Out::b32, p32,
                   [](u64 a, u64 b, u64) { return u32(static_cast<u64>((s32(a) * s32(b)) >> 32)); });
  expect_reference("mul.hi.u32 %d32, %a32, %b32;", Out::b32, p32, [](u64 a, u64 b, u64) { return (u32(a) * u32(b)) >> 32; });
  expect_reference("mul.wide.s32 %d, %a32, %b32;", Out::b64, p32,
                   [](u64 a, u64 b, u64) { return static_cast<u64>(s32(a) * s32(b)); });
  expect_reference("mul.wide.u32 %d, %a32, %b32;", Out::b64, p32, [](u64 a, u64 b, u64) { return u32(a) * u32(b); });
  expect_reference("mul.wide.s16 %d32, %a16, %b16;", Out::b32, p32,
                   [](u64 a, u64 b, u64) { return u32(static_cast<u64>(s16(a) * s16(b))); });
  const auto p64 = pairs(k64);
  expect_reference("mul.lo.u64 %d, %a, %b;", Out::b64, p64, [](u64 a, u64 b, u64) { return a * b; });
  expect_reference("mul.hi.u64 %d, %a, %b;", Out::b64, p64,
                   [](u64 a, u64 b, u64) { return static_cast<u64>((static_cast<u128>(a) * b) >> 64); });
  expect_reference("mul.hi.s64 %d, %a, %b;", Out::b64, p64, [](u64 a, u64 b, u64) {
    return static_cast<u64>(static_cast<u128>(static_cast<i128>(s64(a)) * s64(b)) >> 64);
  });
  // Spot values: -3 * 5 high word is all ones; 0xFFFFFFFF^2 = 0xFFFFFFFE_00000001.
  expect_cases("mul.hi.s32 %d32, %a32, %b32;", Out::b32, {{0xFFFFFFFD, 5, 0, 0xFFFFFFFF}});
  expect_cases("mul.wide.u32 %d, %a32, %b32;", Out::b64, {{0xFFFFFFFF, 0xFFFFFFFF, 0, 0xFFFFFFFE00000001}});
}

TEST(PtxInteger, MadLoHiAndWide) {
  const auto t32 = triples(k32);
  expect_reference("mad.lo.s32 %d32, %a32, %b32, %c32;", Out::b32, t32, [](u64 a, u64 b, u64 c) { return u32(a * b + c); });
  expect_reference("mad.hi.u32 %d32, %a32, %b32, %c32;", Out::b32, t32,
                   [](u64 a, u64 b, u64 c) { return u32(((u32(a) * u32(b)) >> 32) + c); });
  expect_reference("mad.hi.s32 %d32, %a32, %b32, %c32;", Out::b32, t32,
                   [](u64 a, u64 b, u64 c) { return u32(static_cast<u64>((s32(a) * s32(b)) >> 32) + c); });
  expect_reference("mad.hi.sat.s32 %d32, %a32, %b32, %c32;", Out::b32, t32,
                   [](u64 a, u64 b, u64 c) { return clamp32(((s32(a) * s32(b)) >> 32) + s32(c)); });
  expect_reference("mad.wide.s32 %d, %a32, %b32, %c;", Out::b64, t32,
                   [](u64 a, u64 b, u64 c) { return static_cast<u64>(s32(a) * s32(b)) + c; });
  expect_reference("mad.wide.u32 %d, %a32, %b32, %c;", Out::b64, t32, [](u64 a, u64 b, u64 c) { return u32(a) * u32(b) + c; });
  const auto t64 = triples(k64);
  expect_reference("mad.lo.u64 %d, %a, %b, %c;", Out::b64, t64, [](u64 a, u64 b, u64 c) { return a * b + c; });
  expect_reference("mad.hi.s64 %d, %a, %b, %c;", Out::b64, t64, [](u64 a, u64 b, u64 c) {
    return static_cast<u64>(static_cast<u128>(static_cast<i128>(s64(a)) * s64(b)) >> 64) + c;
  });
}

TEST(PtxInteger, Mul24UsesTheLow24BitsOfEachOperand) {
  const auto t32 = triples(k32);
  expect_reference("mul24.lo.u32 %d32, %a32, %b32;", Out::b32, t32,
                   [](u64 a, u64 b, u64) { return u32((a & 0xFFFFFF) * (b & 0xFFFFFF)); });
  expect_reference("mul24.hi.u32 %d32, %a32, %b32;", Out::b32, t32,
                   [](u64 a, u64 b, u64) { return u32(((a & 0xFFFFFF) * (b & 0xFFFFFF)) >> 16); });
  expect_reference("mul24.lo.s32 %d32, %a32, %b32;", Out::b32, t32,
                   [](u64 a, u64 b, u64) { return u32(static_cast<u64>(s24(a) * s24(b))); });
  expect_reference("mul24.hi.s32 %d32, %a32, %b32;", Out::b32, t32,
                   [](u64 a, u64 b, u64) { return u32(static_cast<u64>((s24(a) * s24(b)) >> 16)); });
  expect_reference("mad24.lo.u32 %d32, %a32, %b32, %c32;", Out::b32, t32,
                   [](u64 a, u64 b, u64 c) { return u32((a & 0xFFFFFF) * (b & 0xFFFFFF) + c); });
}

TEST(PtxInteger, SadAddsTheAbsoluteDifference) {
  const auto t32 = triples(k32);
  expect_reference("sad.u32 %d32, %a32, %b32, %c32;", Out::b32, t32,
                   [](u64 a, u64 b, u64 c) { return u32(c + (u32(a) < u32(b) ? u32(b) - u32(a) : u32(a) - u32(b))); });
  expect_reference("sad.s32 %d32, %a32, %b32, %c32;", Out::b32, t32, [](u64 a, u64 b, u64 c) {
    return u32(c + static_cast<u64>(s32(a) < s32(b) ? s32(b) - s32(a) : s32(a) - s32(b)));
  });
}

TEST(PtxInteger, DivAndRemTruncateTowardZero) {
  const auto p32 = pairs(k32), p64 = pairs(k64);
  // Unsigned division by zero: all ones on the GPU.
  expect_reference("div.u32 %d32, %a32, %b32;", Out::b32, p32,
                   [](u64 a, u64 b, u64) { return u32(b) == 0 ? 0xFFFFFFFFull : u32(a) / u32(b); });
  expect_reference("div.u64 %d, %a, %b;", Out::b64, p64, [](u64 a, u64 b, u64) { return b == 0 ? ~0ull : a / b; });
  // INT_MIN / -1 is INT_MIN (the quotient 2^31 wraps), INT_MIN % -1 is 0.
  expect_reference("div.s32 %d32, %a32, %b32;", Out::b32, nonzero_b(p32, 0xFFFFFFFF),
                   [](u64 a, u64 b, u64) { return u32(static_cast<u64>(s32(a) / s32(b))); });
  expect_reference("rem.s32 %d32, %a32, %b32;", Out::b32, nonzero_b(p32, 0xFFFFFFFF),
                   [](u64 a, u64 b, u64) { return u32(static_cast<u64>(s32(a) % s32(b))); });
  expect_reference("rem.u32 %d32, %a32, %b32;", Out::b32, nonzero_b(p32, 0xFFFFFFFF),
                   [](u64 a, u64 b, u64) { return u32(a) % u32(b); });
  expect_reference("div.s64 %d, %a, %b;", Out::b64, nonzero_b(p64, ~0ull), [](u64 a, u64 b, u64) {
    return s64(b) == -1 ? 0 - a : static_cast<u64>(s64(a) / s64(b));
  });
  expect_reference("rem.s64 %d, %a, %b;", Out::b64, nonzero_b(p64, ~0ull),
                   [](u64 a, u64 b, u64) { return s64(b) == -1 ? 0 : static_cast<u64>(s64(a) % s64(b)); });
  expect_cases("div.s32 %d32, %a32, %b32;", Out::b32, {{0x80000000, 0xFFFFFFFF, 0, 0x80000000}, {0xFFFFFFF9, 2, 0, 0xFFFFFFFD}});
  expect_cases("rem.s32 %d32, %a32, %b32;", Out::b32, {{0x80000000, 0xFFFFFFFF, 0, 0}, {0xFFFFFFF9, 2, 0, 0xFFFFFFFF}});
}

TEST(PtxInteger, AbsNegMinMaxRespectSignedness) {
  const auto p32 = pairs(k32), p64 = pairs(k64);
  expect_reference("abs.s32 %d32, %a32;", Out::b32, p32, [](u64 a, u64, u64) { return u32(static_cast<u64>(s32(a) < 0 ? -s32(a) : s32(a))); });
  expect_reference("neg.s32 %d32, %a32;", Out::b32, p32, [](u64 a, u64, u64) { return u32(0 - a); });
  expect_reference("abs.s64 %d, %a;", Out::b64, p64, [](u64 a, u64, u64) { return s64(a) < 0 ? 0 - a : a; });
  expect_reference("neg.s64 %d, %a;", Out::b64, p64, [](u64 a, u64, u64) { return 0 - a; });
  expect_reference("abs.s16 %d16, %a16;", Out::b16, p32, [](u64 a, u64, u64) { return static_cast<u64>(s16(a) < 0 ? -s16(a) : s16(a)) & 0xFFFF; });
  expect_reference("min.s32 %d32, %a32, %b32;", Out::b32, p32, [](u64 a, u64 b, u64) { return s32(a) < s32(b) ? u32(a) : u32(b); });
  expect_reference("max.s32 %d32, %a32, %b32;", Out::b32, p32, [](u64 a, u64 b, u64) { return s32(a) > s32(b) ? u32(a) : u32(b); });
  expect_reference("min.u32 %d32, %a32, %b32;", Out::b32, p32, [](u64 a, u64 b, u64) { return std::min(u32(a), u32(b)); });
  expect_reference("max.u32 %d32, %a32, %b32;", Out::b32, p32, [](u64 a, u64 b, u64) { return std::max(u32(a), u32(b)); });
  expect_reference("min.s64 %d, %a, %b;", Out::b64, p64, [](u64 a, u64 b, u64) { return s64(a) < s64(b) ? a : b; });
  expect_reference("max.u64 %d, %a, %b;", Out::b64, p64, [](u64 a, u64 b, u64) { return std::max(a, b); });
  expect_reference("max.s16 %d16, %a16, %b16;", Out::b16, p32,
                   [](u64 a, u64 b, u64) { return (s16(a) > s16(b) ? a : b) & 0xFFFF; });
  expect_reference("min.u16 %d16, %a16, %b16;", Out::b16, p32,
                   [](u64 a, u64 b, u64) { return std::min(a & 0xFFFF, b & 0xFFFF); });
  // min.s32(-1, 1) = -1 but min.u32(0xFFFFFFFF, 1) = 1.
  expect_cases("min.s32 %d32, %a32, %b32;", Out::b32, {{0xFFFFFFFF, 1, 0, 0xFFFFFFFF}});
  expect_cases("min.u32 %d32, %a32, %b32;", Out::b32, {{0xFFFFFFFF, 1, 0, 1}});
}

TEST(PtxInteger, Dp4aSumsFourByteProducts) {
  auto dot = [](bool a_signed, bool b_signed) {
    return [=](u64 a, u64 b, u64 c) {
      i64 sum = s32(c);
      for (int i = 0; i < 4; ++i) {
        const i64 x = (a >> (8 * i)) & 0xFF, y = (b >> (8 * i)) & 0xFF;
        sum += (a_signed && x > 127 ? x - 256 : x) * (b_signed && y > 127 ? y - 256 : y);
      }
      return u32(static_cast<u64>(sum));
    };
  };
  const auto t32 = triples(k32);
  expect_reference("dp4a.u32.u32 %d32, %a32, %b32, %c32;", Out::b32, t32, dot(false, false));
  expect_reference("dp4a.s32.s32 %d32, %a32, %b32, %c32;", Out::b32, t32, dot(true, true));
  expect_reference("dp4a.s32.u32 %d32, %a32, %b32, %c32;", Out::b32, t32, dot(true, false));
}

TEST(PtxInteger, CarryFlagSurvivesInstructionsWithoutCc) {
  // Only .cc instructions write CC.CF: a mul and a plain add between add.cc and addc leave it.
  expect_cases(R"(
    .reg .b32 %lo, %hi, %x;
    add.cc.u32 %lo, %a32, %b32;
    mul.lo.u32 %x, %a32, %b32;
    add.u32 %x, %x, 1;
    addc.u32 %hi, 0, 0;
    mov.b64 %d, {%lo, %hi};
  )", Out::b64, {{0xFFFFFFFF, 1, 0, 0x100000000}, {0x80000000, 0x7FFFFFFF, 0, 0xFFFFFFFF}});
}

TEST(PtxInteger, PackedHalfwordMinMaxAndRelu) {
  // min/max .s16x2 / .u16x2 work on each 16-bit half; .relu clamps the result at 0.
  auto halves = [](bool is_signed, bool is_min, bool relu) {
    return [=](u64 a, u64 b, u64) {
      u64 d = 0;
      for (int h = 0; h < 2; ++h) {
        const u64 x = (a >> (16 * h)) & 0xFFFF, y = (b >> (16 * h)) & 0xFFFF;
        const i64 sx = is_signed ? s16(x) : static_cast<i64>(x), sy = is_signed ? s16(y) : static_cast<i64>(y);
        i64 r = is_min ? std::min(sx, sy) : std::max(sx, sy);
        if (relu && r < 0) r = 0;
        d |= (static_cast<u64>(r) & 0xFFFF) << (16 * h);
      }
      return d;
    };
  };
  const auto cases = pairs({0, 0x00010002, 0xFFFF8000, 0x7FFF0001, 0x8000FFFF, 0x12345678, 0xFFFFFFFF});
  expect_reference("min.s16x2 %d32, %a32, %b32;", Out::b32, cases, halves(true, true, false));
  expect_reference("max.s16x2 %d32, %a32, %b32;", Out::b32, cases, halves(true, false, false));
  expect_reference("min.u16x2 %d32, %a32, %b32;", Out::b32, cases, halves(false, true, false));
  expect_reference("max.u16x2 %d32, %a32, %b32;", Out::b32, cases, halves(false, false, false));
  expect_reference("min.relu.s16x2 %d32, %a32, %b32;", Out::b32, cases, halves(true, true, true));
  expect_reference("max.relu.s32 %d32, %a32, %b32;", Out::b32, pairs(k32),
                   [](u64 a, u64 b, u64) { return u32(static_cast<u64>(std::max<i64>(std::max(s32(a), s32(b)), 0))); });
  expect_reference("min.relu.s32 %d32, %a32, %b32;", Out::b32, pairs(k32),
                   [](u64 a, u64 b, u64) { return u32(static_cast<u64>(std::max<i64>(std::min(s32(a), s32(b)), 0))); });
}

TEST(PtxInteger, SixteenBitArithmetic) {
  const auto p = pairs(k32);
  expect_reference("mul.lo.u16 %d16, %a16, %b16;", Out::b16, p, [](u64 a, u64 b, u64) { return (a * b) & 0xFFFF; });
  expect_reference("mul.hi.s16 %d16, %a16, %b16;", Out::b16, p,
                   [](u64 a, u64 b, u64) { return static_cast<u64>((s16(a) * s16(b)) >> 16) & 0xFFFF; });
  expect_reference("div.u16 %d16, %a16, %b16;", Out::b16, nonzero_b(p, 0xFFFF), [](u64 a, u64 b, u64) { return (a & 0xFFFF) / (b & 0xFFFF); });
  expect_reference("rem.s16 %d16, %a16, %b16;", Out::b16, nonzero_b(p, 0xFFFF),
                   [](u64 a, u64 b, u64) { return static_cast<u64>(s16(a) % s16(b)) & 0xFFFF; });
  expect_reference("shr.u16 %d16, %a16, %b32;", Out::b16, p,
                   [](u64 a, u64 b, u64) { return (b & 0xFFFFFFFF) >= 16 ? 0 : (a & 0xFFFF) >> (b & 0xFFFFFFFF); });
}

}  // namespace
}  // namespace pkb::ptx_test
