// Comparison and selection: setp with every CmpOp (ordered and unordered with NaN, unsigned lo ls
// hi hs), the BoolOp forms and the p|q pair, half-precision setp, selp, set, slct.
#include <cfloat>

#include "tests/ptx/float_reference.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

const char* const kFloatOps[] = {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};

// The ISA's CmpOps on doubles: the ordered ones are false when either operand is NaN, the
// unordered ones (suffix u) true.
bool float_cmp(const std::string& op, double a, double b) {
  const bool unordered = std::isnan(a) || std::isnan(b);
  if (op == "num") return !unordered;
  if (op == "nan") return unordered;
  if (unordered) return op.size() == 3;
  const std::string base = op.substr(0, 2);
  return base == "eq" ? a == b : base == "ne" ? a != b : base == "lt" ? a < b : base == "le" ? a <= b : base == "gt" ? a > b : a >= b;
}

template <class T>
bool int_cmp(const std::string& op, T a, T b) {
  if (op == "eq") return a == b;
  if (op == "ne") return a != b;
  if (op == "lt" || op == "lo") return a < b;
  if (op == "le" || op == "ls") return a <= b;
  if (op == "gt" || op == "hi") return a > b;
  return a >= b;  // ge, hs
}

TEST(PtxCompare, SetpFloatOrderedAndUnordered) {
  const auto f32 = f32_pairs({1.0f, -1.0f, 0.0f, -0.0f, INFINITY, -INFINITY, NAN, 0x1p-140f, FLT_MAX});
  const auto f64 = f64_pairs({1.0, -1.0, 0.0, -0.0, INFINITY, NAN, 0x1p-1060, 1.0 + 0x1p-52});
  for (const char* op : kFloatOps) {
    expect_reference(std::string("setp.") + op + ".f32 %p, %fa, %fb;", Out::pred, f32,
                     [=](u64 a, u64 b, u64) -> u64 { return float_cmp(op, f32_of(a), f32_of(b)); });
    expect_reference(std::string("setp.") + op + ".f64 %p, %da, %db;", Out::pred, f64,
                     [=](u64 a, u64 b, u64) -> u64 { return float_cmp(op, f64_of(a), f64_of(b)); });
  }
  // ne is ordered: NaN != 1 is false; neu is true. .ftz compares a subnormal as zero.
  expect_cases("setp.ne.f32 %p, %fa, %fb;", Out::pred, {{0x7FC00000, f32_bits(1.0f), 0, 0}});
  expect_cases("setp.neu.f32 %p, %fa, %fb;", Out::pred, {{0x7FC00000, f32_bits(1.0f), 0, 1}});
  expect_cases("setp.eq.ftz.f32 %p, %fa, %fb;", Out::pred, {{0x00000100, 0x80000000, 0, 1}});
  expect_cases("setp.eq.f32 %p, %fa, %fb;", Out::pred, {{0x00000100, 0x80000000, 0, 0}, {0, 0x80000000, 0, 1}});
}

TEST(PtxCompare, SetpIntegerSignedUnsignedAndBits) {
  const std::vector<u64> values = {0, 1, 2, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x100000000, 0x8000000000000000, ~0ull};
  const auto cases = pairs(values);
  for (const char* op : {"eq", "ne", "lt", "le", "gt", "ge"}) {
    expect_reference(std::string("setp.") + op + ".s32 %p, %a32, %b32;", Out::pred, cases, [=](u64 a, u64 b, u64) -> u64 {
      return int_cmp<std::int32_t>(op, static_cast<std::int32_t>(a), static_cast<std::int32_t>(b));
    });
    expect_reference(std::string("setp.") + op + ".u32 %p, %a32, %b32;", Out::pred, cases, [=](u64 a, u64 b, u64) -> u64 {
      return int_cmp<std::uint32_t>(op, static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b));
    });
    expect_reference(std::string("setp.") + op + ".s64 %p, %a, %b;", Out::pred, cases, [=](u64 a, u64 b, u64) -> u64 {
      return int_cmp<std::int64_t>(op, static_cast<std::int64_t>(a), static_cast<std::int64_t>(b));
    });
    expect_reference(std::string("setp.") + op + ".s16 %p, %a16, %b16;", Out::pred, cases, [=](u64 a, u64 b, u64) -> u64 {
      return int_cmp<std::int16_t>(op, static_cast<std::int16_t>(a), static_cast<std::int16_t>(b));
    });
  }
  for (const char* op : {"lo", "ls", "hi", "hs"}) {
    expect_reference(std::string("setp.") + op + ".u32 %p, %a32, %b32;", Out::pred, cases, [=](u64 a, u64 b, u64) -> u64 {
      return int_cmp<std::uint32_t>(op, static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b));
    });
    expect_reference(std::string("setp.") + op + ".u64 %p, %a, %b;", Out::pred, cases,
                     [=](u64 a, u64 b, u64) -> u64 { return int_cmp<u64>(op, a, b); });
  }
  for (const char* op : {"eq", "ne"})
    expect_reference(std::string("setp.") + op + ".b64 %p, %a, %b;", Out::pred, cases,
                     [=](u64 a, u64 b, u64) -> u64 { return int_cmp<u64>(op, a, b); });
  // -1 < 1 signed, but 0xffffffff is not below 1 unsigned.
  expect_cases("setp.lt.s32 %p, %a32, %b32;", Out::pred, {{0xFFFFFFFF, 1, 0, 1}});
  expect_cases("setp.lo.u32 %p, %a32, %b32;", Out::pred, {{0xFFFFFFFF, 1, 0, 0}});
}

TEST(PtxCompare, SetpBoolOpCombinesAndWritesTheComplementToQ) {
  // p = (a < b) BoolOp c, q = !(a < b) BoolOp c; c from bit 0 of %c, optionally negated.
  std::vector<Case> cases;
  for (u64 a : {1, 5})
    for (u64 c : {0, 1}) cases.push_back({a, 3, c});
  for (const char* bool_op : {"and", "or", "xor"})
    for (bool negate : {false, true}) {
      const std::string body = std::string(".reg .pred %r, %s;\n setp.ne.u64 %r, %c, 0;\n setp.lt.") + bool_op +
                               ".s32 %p|%s, %a32, %b32, " + (negate ? "!" : "") + "%r;\n selp.u32 %t32, 2, 0, %s;\n" +
                               " selp.u32 %d32, 1, 0, %p;\n or.b32 %d32, %d32, %t32;";
      expect_reference(body, Out::b32, cases, [=](u64 a, u64 b, u64 c) -> u64 {
        const bool t = a < b, r = (c != 0) != negate;
        auto combine = [&](bool x) { return bool_op[0] == 'a' ? x && r : bool_op[0] == 'o' ? x || r : x != r; };
        return (combine(t) ? 1 : 0) | (combine(!t) ? 2 : 0);
      });
    }
  // The sink may take the first destination.
  expect_cases("setp.gt.u32 _|%p, %a32, %b32;", Out::pred, {{5, 3, 0, 0}, {1, 3, 0, 1}});
}

TEST(PtxCompare, SetpOnHalvesWritesOnePredicatePerElement) {
  // setp.f16x2 p|q: p from element 0 (the low halves), q from element 1.
  const std::string body = ".reg .pred %s;\n setp.lt.f16x2 %p|%s, %a32, %b32;\n selp.u32 %t32, 2, 0, %s;\n"
                           " selp.u32 %d32, 1, 0, %p;\n or.b32 %d32, %d32, %t32;";
  expect_cases(body, Out::b32, {{0x40003C00, 0x3C004000, 0, 1}, {0x3C004000, 0x40003C00, 0, 2}, {0x7E007E00, 0x3C003C00, 0, 0}});
  expect_cases("setp.gtu.f16 %p, %a16, %b16;", Out::pred, {{0x7E00, 0x3C00, 0, 1}, {0x3C00, 0x4000, 0, 0}});
  expect_cases("setp.lt.bf16 %p, %a16, %b16;", Out::pred, {{0xBF80, 0x3F80, 0, 1}, {0x7FC0, 0x3F80, 0, 0}});
  expect_cases("setp.ge.bf16x2 %p|_, %a32, %b32;", Out::pred, {{0x00003F80, 0x40003F80, 0, 1}});
}

TEST(PtxCompare, SelpSetAndSlct) {
  expect_cases("setp.ne.u64 %q, %c, 0;\n selp.b32 %d32, %a32, %b32, %q;", Out::b32, {{7, 9, 1, 7}, {7, 9, 0, 9}});
  expect_cases("setp.ne.u64 %q, %c, 0;\n selp.f32 %fd, %fa, %fb, %q;", Out::f32, {{0x3F800000, 0xBF800000, 0, 0xBF800000}});
  expect_cases("setp.ne.u64 %q, %c, 0;\n selp.b64 %d, %a, %b, %q;", Out::b64, {{~0ull, 5, 1, ~0ull}});
  // set: 0xffffffff or 1.0f when true, 0 when false.
  expect_cases("set.lt.u32.s32 %d32, %a32, %b32;", Out::b32, {{0xFFFFFFFF, 1, 0, 0xFFFFFFFF}, {2, 1, 0, 0}});
  expect_cases("set.lt.f32.s32 %fd, %a32, %b32;", Out::f32, {{0xFFFFFFFF, 1, 0, 0x3F800000}, {2, 1, 0, 0}});
  expect_cases("set.gtu.s32.f32 %d32, %fa, %fb;", Out::b32, {{0x7FC00000, 0, 0, 0xFFFFFFFF}, {0, 0x3F800000, 0, 0}});
  expect_cases("set.eq.f32.f64 %fd, %da, %db;", Out::f32, {{f64_bits(2.0), f64_bits(2.0), 0, 0x3F800000}});
  expect_cases("setp.ne.u64 %q, %c, 0;\n set.eq.and.u32.u32 %d32, %a32, %b32, !%q;", Out::b32,
               {{4, 4, 0, 0xFFFFFFFF}, {4, 4, 1, 0}, {4, 5, 0, 0}});
  // slct: a when c >= 0 (-0.0 counts as >= 0), else b.
  expect_cases("slct.b32.s32 %d32, %a32, %b32, %c32;", Out::b32, {{1, 2, 0, 1}, {1, 2, 0xFFFFFFFF, 2}, {1, 2, 0x7FFFFFFF, 1}});
  expect_cases("slct.u64.s32 %d, %a, %b, %c32;", Out::b64, {{~0ull, 3, 0x80000000, 3}});
  expect_cases("slct.f32.f32 %fd, %fa, %fb, %fc;", Out::f32,
               {{0x3F800000, 0x40000000, 0x80000000, 0x3F800000}, {0x3F800000, 0x40000000, 0xBF800000, 0x40000000}});
  expect_cases("slct.ftz.s32.f32 %d32, %a32, %b32, %fc;", Out::b32, {{1, 2, 0x80000001, 1}});
}

}  // namespace
}  // namespace pkb::ptx_test
