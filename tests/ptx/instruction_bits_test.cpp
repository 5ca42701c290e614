// Bit-manipulation integer instructions (popc clz bfind brev bfe bfi bmsk szext) against the PTX
// ISA's pseudocode, transcribed bit by bit, over edge values and positions beyond the width.
#include "tests/ptx/instruction_cases.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

const std::vector<u64> kValues = {0,
                                  1,
                                  0x80,
                                  0x12345678,
                                  0x7FFFFFFF,
                                  0x80000000,
                                  0xF0F00F0F,
                                  0xFFFFFFFF,
                                  0x00000001FFFFFFFF,
                                  0x8000000000000000,
                                  0x7FFFFFFFFFFFFFFF,
                                  0xFFFFFFFFFFFFFFFF,
                                  0xFEDCBA9876543210,
                                  0x0000FFFF00000000};

std::vector<Case> singles(const std::vector<u64>& values) {
  std::vector<Case> cases;
  for (u64 v : values) cases.push_back({v, 0, 0});
  return cases;
}

u64 bit(u64 x, int i) { return (x >> i) & 1; }

u64 popc(u64 a, int width) {
  u64 d = 0;
  for (int i = 0; i < width; ++i) d += bit(a, i);
  return d;
}
u64 clz(u64 a, int width) {
  u64 d = 0;
  while (static_cast<int>(d) < width && !bit(a, width - 1 - static_cast<int>(d))) ++d;
  return d;
}
u64 bfind(u64 a, int width, bool is_signed, bool shiftamt) {
  const int msb = width - 1;
  if (width == 32) a &= 0xFFFFFFFF;
  if (is_signed && bit(a, msb)) a = ~a;
  u64 d = 0xFFFFFFFF;
  for (int i = msb; i >= 0; --i)
    if (bit(a, i)) {
      d = static_cast<u64>(i);
      break;
    }
  if (shiftamt && d != 0xFFFFFFFF) d = static_cast<u64>(msb) - d;
  return d;
}
u64 brev(u64 a, int width) {
  u64 d = 0;
  for (int i = 0; i < width; ++i) d |= bit(a, width - 1 - i) << i;
  return d;
}
u64 bfe(u64 a, u64 b, u64 c, int width, bool is_signed) {
  const int msb = width - 1;
  const int pos = static_cast<int>(b & 0xFF), len = static_cast<int>(c & 0xFF);
  const u64 sbit = (!is_signed || len == 0) ? 0 : bit(a, std::min(pos + len - 1, msb));
  u64 d = 0;
  for (int i = 0; i <= msb; ++i) d |= ((i < len && pos + i <= msb) ? bit(a, pos + i) : sbit) << i;
  return d;
}
u64 bfi(u64 a, u64 b, u64 c, u64 e, int width) {
  const int msb = width - 1;
  const int pos = static_cast<int>(c & 0xFF), len = static_cast<int>(e & 0xFF);
  u64 f = width == 32 ? b & 0xFFFFFFFF : b;
  for (int i = 0; i < len && pos + i <= msb; ++i) f = (f & ~(1ull << (pos + i))) | (bit(a, i) << (pos + i));
  return f;
}

// bfe / bfi position and length operands, including values past the msb and above 255 (only
// the low 8 bits count).
const std::vector<u64> kPositions = {0, 1, 4, 16, 28, 31, 32, 40, 63, 64, 200, 0x104};
const std::vector<u64> kLengths = {0, 1, 4, 8, 16, 31, 32, 33, 63, 64, 255, 0x108};

std::vector<Case> field_cases(u64 a) {
  std::vector<Case> cases;
  for (u64 pos : kPositions)
    for (u64 len : kLengths) cases.push_back({a, pos, len});
  return cases;
}

TEST(PtxBits, PopcCountsOnes) {
  expect_reference("popc.b32 %d32, %a32;", Out::b32, singles(kValues), [](u64 a, u64, u64) { return popc(a, 32); });
  expect_reference("popc.b64 %d32, %a;", Out::b32, singles(kValues), [](u64 a, u64, u64) { return popc(a, 64); });
}

TEST(PtxBits, ClzOfZeroIsTheWidth) {
  expect_reference("clz.b32 %d32, %a32;", Out::b32, singles(kValues), [](u64 a, u64, u64) { return clz(a, 32); });
  expect_reference("clz.b64 %d32, %a;", Out::b32, singles(kValues), [](u64 a, u64, u64) { return clz(a, 64); });
  expect_cases("clz.b32 %d32, %a32;", Out::b32, {{0, 0, 0, 32}, {1, 0, 0, 31}});
  expect_cases("clz.b64 %d32, %a;", Out::b32, {{0, 0, 0, 64}});
}

TEST(PtxBits, BfindFindsTheMostSignificantNonSignBit) {
  for (bool shiftamt : {false, true}) {
    const std::string q = shiftamt ? ".shiftamt" : "";
    expect_reference("bfind" + q + ".u32 %d32, %a32;", Out::b32, singles(kValues),
                     [=](u64 a, u64, u64) { return bfind(a, 32, false, shiftamt); });
    expect_reference("bfind" + q + ".s32 %d32, %a32;", Out::b32, singles(kValues),
                     [=](u64 a, u64, u64) { return bfind(a, 32, true, shiftamt); });
    expect_reference("bfind" + q + ".u64 %d32, %a;", Out::b32, singles(kValues),
                     [=](u64 a, u64, u64) { return bfind(a, 64, false, shiftamt); });
    expect_reference("bfind" + q + ".s64 %d32, %a;", Out::b32, singles(kValues),
                     [=](u64 a, u64, u64) { return bfind(a, 64, true, shiftamt); });
  }
  // Of 0 (and of -1 signed) there is no such bit: 0xffffffff, with or without .shiftamt.
  expect_cases("bfind.u32 %d32, %a32;", Out::b32, {{0, 0, 0, 0xFFFFFFFF}, {0x80000000, 0, 0, 31}});
  expect_cases("bfind.s32 %d32, %a32;", Out::b32, {{0xFFFFFFFF, 0, 0, 0xFFFFFFFF}, {0xFFFFFFF0, 0, 0, 3}});
  expect_cases("bfind.shiftamt.u32 %d32, %a32;", Out::b32, {{0, 0, 0, 0xFFFFFFFF}, {1, 0, 0, 31}});
}

TEST(PtxBits, BrevReversesAllBits) {
  expect_reference("brev.b32 %d32, %a32;", Out::b32, singles(kValues), [](u64 a, u64, u64) { return brev(a, 32); });
  expect_reference("brev.b64 %d, %a;", Out::b64, singles(kValues), [](u64 a, u64, u64) { return brev(a, 64); });
}

TEST(PtxBits, BfeExtractsAndSignFills) {
  for (u64 a : {0xF0F00F0Full, 0x8765432187654321ull, 0x7FFFFFFF7FFFFFFFull}) {
    const auto cases = field_cases(a);
    expect_reference("bfe.u32 %d32, %a32, %b32, %c32;", Out::b32, cases, [](u64 x, u64 b, u64 c) { return bfe(x, b, c, 32, false); });
    expect_reference("bfe.s32 %d32, %a32, %b32, %c32;", Out::b32, cases, [](u64 x, u64 b, u64 c) { return bfe(x, b, c, 32, true); });
    expect_reference("bfe.u64 %d, %a, %b32, %c32;", Out::b64, cases, [](u64 x, u64 b, u64 c) { return bfe(x, b, c, 64, false); });
    expect_reference("bfe.s64 %d, %a, %b32, %c32;", Out::b64, cases, [](u64 x, u64 b, u64 c) { return bfe(x, b, c, 64, true); });
  }
  // bfe.s32 of 0xF0 at bit 4, 4 bits: 0xF sign-extended = -1; at bit 40 (beyond the msb) the
  // field is all copies of bit 31; 0x70 gives the field 0b0111 = 7.
  expect_cases("bfe.s32 %d32, %a32, %b32, %c32;", Out::b32,
               {{0xF0, 4, 4, 0xFFFFFFFF}, {0x70, 4, 4, 0x7}, {0x80000000, 40, 4, 0xFFFFFFFF}, {0xF0, 4, 0, 0}});
}

TEST(PtxBits, BfiInsertsAFieldAndIgnoresBitsPastTheMsb) {
  // bfi d, a, b, pos, len: pos from the low half of %c, len from its high half.
  const std::string body32 = R"(
    .reg .b32 %pos, %len;
    mov.b64 {%pos, %len}, %c;
    bfi.b32 %d32, %a32, %b32, %pos, %len;
  )";
  const std::string body64 = R"(
    .reg .b32 %pos, %len;
    mov.b64 {%pos, %len}, %c;
    bfi.b64 %d, %a, %b, %pos, %len;
  )";
  std::vector<Case> cases;
  for (u64 pos : kPositions)
    for (u64 len : kLengths) cases.push_back({0x123456789ABCDEF1ull, 0xF0F0F0F0F0F0F0F0ull, pos | (len << 32)});
  expect_reference(body32, Out::b32, cases, [](u64 a, u64 b, u64 c) { return bfi(a, b, c & 0xFFFFFFFF, c >> 32, 32); });
  expect_reference(body64, Out::b64, cases, [](u64 a, u64 b, u64 c) { return bfi(a, b, c & 0xFFFFFFFF, c >> 32, 64); });
  expect_cases(body32, Out::b32, {{0xF, 0, 4 | (4ull << 32), 0xF0}, {0xFF, 0x11111111, 28 | (8ull << 32), 0xF1111111}});
}

TEST(PtxBits, BmskBuildsAMaskFromPositionAndWidth) {
  auto bmsk = [](bool clamp) {
    return [=](u64 a, u64 b, u64) -> u64 {
      const u64 a1 = a & 0x1F, b1 = b & 0x1F, sum = a1 + b1;
      u64 mask0 = (0xFFFFFFFFull << a1) & 0xFFFFFFFF;
      u64 mask1 = sum >= 32 ? 0 : (0xFFFFFFFFull << sum) & 0xFFFFFFFF;
      bool position_overflow = false, width_overflow = false;
      if (clamp && a >= 32) position_overflow = true, mask0 = 0;
      if (clamp && b >= 32) width_overflow = true;
      if (sum >= 32 || position_overflow || width_overflow) mask1 = 0;
      else if (b1 == 0) mask1 = 0xFFFFFFFF;
      return mask0 & ~mask1 & 0xFFFFFFFF;
    };
  };
  std::vector<Case> cases;
  for (u64 a : {0, 1, 8, 31, 32, 33})
    for (u64 b : {0, 1, 4, 24, 31, 32, 40}) cases.push_back({a, b, 0});
  expect_reference("bmsk.clamp.b32 %d32, %a32, %b32;", Out::b32, cases, bmsk(true));
  expect_reference("bmsk.wrap.b32 %d32, %a32, %b32;", Out::b32, cases, bmsk(false));
  expect_cases("bmsk.clamp.b32 %d32, %a32, %b32;", Out::b32, {{8, 4, 0, 0xF00}, {28, 8, 0, 0xF0000000}});
}

TEST(PtxBits, SzextExtendsAnNBitValue) {
  auto szext = [](bool clamp, bool is_signed) {
    return [=](u64 a, u64 b, u64) -> u64 {
      a &= 0xFFFFFFFF;
      const u64 b1 = b & 0x1F;
      const bool too_large = b >= 32 && clamp;
      const u64 mask = too_large ? 0 : (0xFFFFFFFFull << b1) & 0xFFFFFFFF;
      const u64 sign_pos = (b1 - 1) & 0x1F;
      const bool sign = !(b1 == 0 || too_large || !is_signed) && bit(a, static_cast<int>(sign_pos));
      return ((a & ~mask) | (sign ? mask : 0)) & 0xFFFFFFFF;
    };
  };
  std::vector<Case> cases;
  for (u64 a : {0x0ull, 0x80ull, 0x7Full, 0xFFFFFFFFull, 0x12345678ull, 0x80000000ull})
    for (u64 b : {0, 1, 7, 8, 16, 31, 32, 33}) cases.push_back({a, b, 0});
  for (bool clamp : {true, false})
    for (bool is_signed : {true, false})
      expect_reference(std::string("szext.") + (clamp ? "clamp" : "wrap") + (is_signed ? ".s32" : ".u32") +
                           " %d32, %a32, %b32;",
                       Out::b32, cases, szext(clamp, is_signed));
  expect_cases("szext.clamp.s32 %d32, %a32, %b32;", Out::b32, {{0x80, 8, 0, 0xFFFFFF80}, {0x7F, 8, 0, 0x7F}});
}

}  // namespace
}  // namespace pkb::ptx_test
