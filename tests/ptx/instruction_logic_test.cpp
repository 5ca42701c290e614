// Logic and shift instructions (and or xor not cnot on b16/b32/b64/pred, shl shr with large shift
// amounts, shf.l/.r .wrap/.clamp, lop3 LUTs, prmt's generic and special modes) against the PTX ISA.
#include "tests/ptx/instruction_cases.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

const std::vector<u64> kWords = {0, 1, 0x80000000, 0xFFFFFFFF, 0x12345678, 0xF0F0F0F0A5A5A5A5,
                                 0x8000000000000000, 0xFFFFFFFFFFFFFFFF, 0x00FF00FF00FF00FF};
const std::vector<u64> kShifts = {0, 1, 7, 15, 16, 31, 32, 33, 63, 64, 65, 255, 0x80000000, 0xFFFFFFFF};

std::vector<Case> shift_cases() {
  std::vector<Case> cases;
  for (u64 a : kWords)
    for (u64 b : kShifts) cases.push_back({a, b, 0});
  return cases;
}

TEST(PtxLogic, BitwiseOpsOnEveryWidth) {
  const auto p = pairs(kWords);
  expect_reference("and.b32 %d32, %a32, %b32;", Out::b32, p, [](u64 a, u64 b, u64) { return a & b & 0xFFFFFFFF; });
  expect_reference("or.b32 %d32, %a32, %b32;", Out::b32, p, [](u64 a, u64 b, u64) { return (a | b) & 0xFFFFFFFF; });
  expect_reference("xor.b32 %d32, %a32, %b32;", Out::b32, p, [](u64 a, u64 b, u64) { return (a ^ b) & 0xFFFFFFFF; });
  expect_reference("not.b32 %d32, %a32;", Out::b32, p, [](u64 a, u64, u64) { return ~a & 0xFFFFFFFF; });
  expect_reference("and.b64 %d, %a, %b;", Out::b64, p, [](u64 a, u64 b, u64) { return a & b; });
  expect_reference("or.b64 %d, %a, %b;", Out::b64, p, [](u64 a, u64 b, u64) { return a | b; });
  expect_reference("xor.b64 %d, %a, %b;", Out::b64, p, [](u64 a, u64 b, u64) { return a ^ b; });
  expect_reference("not.b64 %d, %a;", Out::b64, p, [](u64 a, u64, u64) { return ~a; });
  expect_reference("xor.b16 %d16, %a16, %b16;", Out::b16, p, [](u64 a, u64 b, u64) { return (a ^ b) & 0xFFFF; });
  expect_reference("not.b16 %d16, %a16;", Out::b16, p, [](u64 a, u64, u64) { return ~a & 0xFFFF; });
  // cnot: 1 when the operand is 0, else 0 (C's !).
  expect_reference("cnot.b32 %d32, %a32;", Out::b32, p, [](u64 a, u64, u64) -> u64 { return (a & 0xFFFFFFFF) == 0; });
  expect_reference("cnot.b64 %d, %a;", Out::b64, p, [](u64 a, u64, u64) -> u64 { return a == 0; });
  expect_reference("cnot.b16 %d16, %a16;", Out::b16, p, [](u64 a, u64, u64) -> u64 { return (a & 0xFFFF) == 0; });
}

TEST(PtxLogic, PredicateLogic) {
  std::vector<Case> cases;
  for (u64 a : {0, 1})
    for (u64 b : {0, 1}) cases.push_back({a, b, 0});
  const std::string setup = "setp.ne.u64 %q, %a, 0;\n .reg .pred %r;\n setp.ne.u64 %r, %b, 0;\n";
  expect_reference(setup + "and.pred %p, %q, %r;", Out::pred, cases, [](u64 a, u64 b, u64) { return a & b; });
  expect_reference(setup + "or.pred %p, %q, %r;", Out::pred, cases, [](u64 a, u64 b, u64) { return a | b; });
  expect_reference(setup + "xor.pred %p, %q, %r;", Out::pred, cases, [](u64 a, u64 b, u64) { return a ^ b; });
  expect_reference(setup + "not.pred %p, %q;", Out::pred, cases, [](u64 a, u64, u64) { return a ^ 1; });
  expect_reference(setup + "and.pred %p, !%q, %r;", Out::pred, cases, [](u64 a, u64 b, u64) { return (a ^ 1) & b; });
  expect_reference(setup + "or.pred %p, %q, !%r;", Out::pred, cases, [](u64 a, u64 b, u64) { return a | (b ^ 1); });
}

TEST(PtxLogic, ShiftsByTheWidthOrMoreClamp) {
  // Shift amounts are unsigned 32-bit, and amounts >= the width act as the width: shl and
  // logical shr give 0, shr.s fills with the sign.
  const auto cases = shift_cases();
  auto amount = [](u64 b, u64 width) { return std::min(b & 0xFFFFFFFF, width); };
  expect_reference("shl.b32 %d32, %a32, %b32;", Out::b32, cases,
                   [&](u64 a, u64 b, u64) { return amount(b, 32) >= 32 ? 0 : (a << amount(b, 32)) & 0xFFFFFFFF; });
  expect_reference("shr.u32 %d32, %a32, %b32;", Out::b32, cases,
                   [&](u64 a, u64 b, u64) { return amount(b, 32) >= 32 ? 0 : (a & 0xFFFFFFFF) >> amount(b, 32); });
  expect_reference("shr.s32 %d32, %a32, %b32;", Out::b32, cases, [&](u64 a, u64 b, u64) {
    const auto s = static_cast<std::int64_t>(static_cast<std::int32_t>(a));
    return static_cast<u64>(s >> std::min<u64>(amount(b, 32), 31)) & 0xFFFFFFFF;
  });
  expect_reference("shl.b64 %d, %a, %b32;", Out::b64, cases,
                   [&](u64 a, u64 b, u64) { return amount(b, 64) >= 64 ? 0 : a << amount(b, 64); });
  expect_reference("shr.b64 %d, %a, %b32;", Out::b64, cases,
                   [&](u64 a, u64 b, u64) { return amount(b, 64) >= 64 ? 0 : a >> amount(b, 64); });
  expect_reference("shr.s64 %d, %a, %b32;", Out::b64, cases, [&](u64 a, u64 b, u64) {
    return static_cast<u64>(static_cast<std::int64_t>(a) >> std::min<u64>(amount(b, 64), 63));
  });
  expect_reference("shl.b16 %d16, %a16, %b32;", Out::b16, cases,
                   [&](u64 a, u64 b, u64) { return amount(b, 16) >= 16 ? 0 : (a << amount(b, 16)) & 0xFFFF; });
  expect_reference("shr.s16 %d16, %a16, %b32;", Out::b16, cases, [&](u64 a, u64 b, u64) {
    const auto s = static_cast<std::int64_t>(static_cast<std::int16_t>(a));
    return static_cast<u64>(s >> std::min<u64>(amount(b, 16), 15)) & 0xFFFF;
  });
  expect_cases("shr.s32 %d32, %a32, %b32;", Out::b32, {{0x80000000, 32, 0, 0xFFFFFFFF}, {0x80000000, 100, 0, 0xFFFFFFFF}});
  expect_cases("shl.b32 %d32, %a32, %b32;", Out::b32, {{1, 32, 0, 0}, {1, 31, 0, 0x80000000}});
}

TEST(PtxLogic, FunnelShiftWrapsOrClampsTheAmount) {
  // shf: the 64-bit value b:a shifted by n = clamp ? min(c, 32) : c & 31; .l keeps the high 32
  // bits, .r the low 32.
  std::vector<Case> cases;
  for (u64 c : std::vector<u64>{0, 1, 4, 16, 31, 32, 33, 36, 64, 0xFFFFFFFF})
    cases.push_back({0x89ABCDEF, 0x01234567, c}), cases.push_back({0xFFFFFFFF, 0x80000000, c});
  auto shf = [](bool left, bool clamp) {
    return [=](u64 a, u64 b, u64 c) -> u64 {
      const u64 n = clamp ? std::min<u64>(c & 0xFFFFFFFF, 32) : c & 31;
      const u64 v = (b << 32) | (a & 0xFFFFFFFF);
      return left ? ((v << n) >> 32) & 0xFFFFFFFF : (v >> n) & 0xFFFFFFFF;
    };
  };
  expect_reference("shf.l.wrap.b32 %d32, %a32, %b32, %c32;", Out::b32, cases, shf(true, false));
  expect_reference("shf.l.clamp.b32 %d32, %a32, %b32, %c32;", Out::b32, cases, shf(true, true));
  expect_reference("shf.r.wrap.b32 %d32, %a32, %b32, %c32;", Out::b32, cases, shf(false, false));
  expect_reference("shf.r.clamp.b32 %d32, %a32, %b32, %c32;", Out::b32, cases, shf(false, true));
  // By 4: left gives 0x12345678, right gives 0x789ABCDE; clamped 40 is 32: left gives a, right b.
  expect_cases("shf.l.clamp.b32 %d32, %a32, %b32, %c32;", Out::b32,
               {{0x89ABCDEF, 0x01234567, 4, 0x12345678}, {0x89ABCDEF, 0x01234567, 40, 0x89ABCDEF}});
  expect_cases("shf.r.wrap.b32 %d32, %a32, %b32, %c32;", Out::b32,
               {{0x89ABCDEF, 0x01234567, 4, 0x789ABCDE}, {0x89ABCDEF, 0x01234567, 36, 0x789ABCDE}});
}

TEST(PtxLogic, Lop3AppliesTheLookupTable) {
  // Bit i of the result is bit ((a_i << 2) | (b_i << 1) | c_i) of the LUT (ta = 0xF0, tb = 0xCC,
  // tc = 0xAA).
  std::vector<Case> cases;
  for (u64 a : {0x0ull, 0xFFFFFFFFull, 0xF0F0F0F0ull, 0x12345678ull})
    for (u64 b : {0xCCCCCCCCull, 0x0F0F0F0Full, 0xDEADBEEFull})
      for (u64 c : {0xAAAAAAAAull, 0x00FF00FFull, 0x9ABCDEF0ull}) cases.push_back({a, b, c});
  for (int lut : {0xE8, 0x96, 0x80, 0xFE, 0x1A, 0xCA, 0x00, 0xFF, 0x3C}) {
    expect_reference("lop3.b32 %d32, %a32, %b32, %c32, " + std::to_string(lut) + ";", Out::b32, cases,
                     [=](u64 a, u64 b, u64 c) {
                       u64 d = 0;
                       for (int i = 0; i < 32; ++i) {
                         const int index = static_cast<int>(((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1));
                         d |= static_cast<u64>((lut >> index) & 1) << i;
                       }
                       return d;
                     });
  }
  // 0xE8 is the bitwise majority, 0x96 the three-way xor.
  expect_cases("lop3.b32 %d32, %a32, %b32, %c32, 0xE8;", Out::b32, {{0xFF00FF00, 0xF0F0F0F0, 0xCCCCCCCC, 0xFCC0FCC0}});
  expect_cases("lop3.b32 %d32, %a32, %b32, %c32, 0x96;", Out::b32, {{0xFF00FF00, 0xF0F0F0F0, 0xCCCCCCCC, 0xC33CC33C}});
}

TEST(PtxLogic, PrmtGenericModeCopiesOrReplicatesSigns) {
  // Bytes {b, a} numbered 0-7 from a's low byte; each selector nibble's low 3 bits pick a byte and
  // its bit 3 replicates that byte's sign bit instead.
  auto prmt = [](u64 a, u64 b, u64 c) {
    const u64 source = (b & 0xFFFFFFFF) << 32 | (a & 0xFFFFFFFF);
    u64 d = 0;
    for (int k = 0; k < 4; ++k) {
      const u64 select = (c >> (4 * k)) & 0xF, byte = (source >> (8 * (select & 7))) & 0xFF;
      d |= ((select & 8) ? ((byte & 0x80) ? 0xFF : 0) : byte) << (8 * k);
    }
    return d;
  };
  std::vector<Case> cases;
  for (u64 c : std::vector<u64>{0x3210, 0x7654, 0x0123, 0x4444, 0x8888, 0xFEDC, 0xBA98, 0x1C3E, 0x5140, 0xFFFF3210})
    cases.push_back({0x80FF7F01, 0x11A2335B, c});
  expect_reference("prmt.b32 %d32, %a32, %b32, %c32;", Out::b32, cases, prmt);
  // Selector 0x8 replicates byte 0's sign (0x01: 0x00), 0x9 byte 1's (0x7F: 0x00), 0xA byte 2's
  // (0xFF: 0xFF), 0xB byte 3's (0x80: 0xFF).
  expect_cases("prmt.b32 %d32, %a32, %b32, %c32;", Out::b32,
               {{0x80FF7F01, 0x11A2335B, 0xBA98, 0xFFFF0000}, {0x80FF7F01, 0x11A2335B, 0x0123, 0x017FFF80}});
}

TEST(PtxLogic, PrmtSpecialModes) {
  // From the ISA's tables: f4e (forward 4 extract), b4e (backward), rc8 (replicate byte), ecl/ecr
  // (edge clamp), rc16 (replicate half); selector c & 3.
  const u64 a = 0x33221100, b = 0x77665544;
  const std::vector<std::pair<std::string, std::vector<u64>>> modes = {
      {"f4e", {0x33221100, 0x44332211, 0x55443322, 0x66554433}},
      {"b4e", {0x55667700, 0x66770011, 0x77001122, 0x00112233}},
      {"rc8", {0x00000000, 0x11111111, 0x22222222, 0x33333333}},
      {"ecl", {0x33221100, 0x33221111, 0x33222222, 0x33333333}},
      {"ecr", {0x00000000, 0x11111100, 0x22221100, 0x33221100}},
      {"rc16", {0x11001100, 0x33223322, 0x11001100, 0x33223322}},
  };
  for (const auto& [mode, want] : modes) {
    std::vector<Check> checks;
    for (u64 c = 0; c < 4; ++c) checks.push_back({a, b, c | 0x40, want[c]});
    expect_cases("prmt.b32." + mode + " %d32, %a32, %b32, %c32;", Out::b32, checks);
  }
}

}  // namespace
}  // namespace pkb::ptx_test
