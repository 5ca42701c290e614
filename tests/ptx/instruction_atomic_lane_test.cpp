// atom / red on each lane's own word, one value per lane: the old value returned and the word
// left, for the widths and operand edge cases the shared-address tests leave out (b16 cas, b64
// exch, inc/dec at bounds 0 and 0xffffffff, signed 64-bit max, f64 and bf16x2 reductions).
#include "tests/ptx/float_reference.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

// Runs `op` (reading and writing [%inptr], leaving a 32-bit old value in %r0) per lane on
// in[lane]; returns {old, word afterwards} per lane. With `wide` only the 64-bit word afterwards
// comes back (old is 0).
std::vector<std::pair<u64, u64>> per_lane(const std::string& op, const std::vector<u64>& in, bool wide) {
  const std::string body = ".reg .b32 %r0, %r1;\n .reg .b64 %rd0, %rd1;\n .reg .b16 %h0;\n .reg .f64 %fd0;\n" + op +
                           (wide ? "\n ld.global.u64 %rd1, [%inptr];\n mov.b64 %out, %rd1;"
                                 : "\n ld.global.u32 %r1, [%inptr];\n mov.b64 %out, {%r0, %r1};");
  const BodyRun run = run_body(body, in);
  EXPECT_EQ(run.fault, "") << op;
  std::vector<std::pair<u64, u64>> result;
  for (std::size_t lane = 0; lane < in.size(); ++lane)
    result.push_back(wide ? std::pair<u64, u64>{0, run.out[lane]} : std::pair<u64, u64>{run.out[lane] & 0xFFFFFFFF, run.out[lane] >> 32});
  return result;
}

TEST(PtxAtomicLane, IncAndDecAtTheExtremeBounds) {
  const std::vector<u64> in = {0, 1, 5, 0xFFFFFFFE, 0xFFFFFFFF};
  // inc with b = 0xffffffff never wraps below it: old + 1, except old = 0xffffffff -> 0.
  const auto inc = per_lane("atom.global.inc.u32 %r0, [%inptr], 0xffffffff;", in, false);
  // dec with b = 0: (old == 0 || old > 0) -> b, so always 0.
  const auto dec = per_lane("atom.global.dec.u32 %r0, [%inptr], 0;", in, false);
  for (std::size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(inc[i].first, in[i]);
    EXPECT_EQ(hex(inc[i].second), hex(in[i] == 0xFFFFFFFF ? 0 : in[i] + 1)) << "inc of " << hex(in[i]);
    EXPECT_EQ(dec[i].first, in[i]);
    EXPECT_EQ(hex(dec[i].second), hex(0)) << "dec of " << hex(in[i]);
  }
}

TEST(PtxAtomicLane, CasOnSixteenBitsTouchesOnlyItsHalf) {
  // cas.b16 on the low half: compare 0x1234, swap in 0xbeef; the high half is untouched.
  const std::vector<u64> in = {0xAAAA1234, 0xAAAA1235, 0x00001234};
  const auto cas = per_lane("mov.u16 %h0, 0xbeef;\n atom.global.cas.b16 %h0, [%inptr], 0x1234, %h0;\n cvt.u32.u16 %r0, %h0;", in, false);
  EXPECT_EQ(hex(cas[0].second), hex(0xAAAABEEF));
  EXPECT_EQ(hex(cas[0].first), hex(0x1234));
  EXPECT_EQ(hex(cas[1].second), hex(0xAAAA1235));
  EXPECT_EQ(hex(cas[1].first), hex(0x1235));
  EXPECT_EQ(hex(cas[2].second), hex(0x0000BEEF));
}

TEST(PtxAtomicLane, SixtyFourBitExchMaxAndAdds) {
  const std::vector<u64> in = {0x8000000000000000, 0x7FFFFFFFFFFFFFFF, 5, 0xFFFFFFFFFFFFFFFF};
  const auto exch = per_lane("mov.u64 %rd0, 0x0123456789ABCDEF;\n atom.global.exch.b64 %rd0, [%inptr], %rd0;", in, true);
  const auto max = per_lane("atom.global.max.s64 %rd0, [%inptr], -7;", in, true);
  const auto add = per_lane("atom.global.add.u64 %rd0, [%inptr], 0xFFFFFFFF00000001;", in, true);
  for (std::size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(hex(exch[i].second), hex(0x0123456789ABCDEF));
    const auto s = static_cast<std::int64_t>(in[i]);
    EXPECT_EQ(hex(max[i].second), hex(static_cast<u64>(s > -7 ? s : -7))) << hex(in[i]);
    EXPECT_EQ(hex(add[i].second), hex(in[i] + 0xFFFFFFFF00000001)) << hex(in[i]);
  }
  const auto neg = per_lane("atom.global.add.s32 %r0, [%inptr], -3;", {1, 0, 0x80000002}, false);
  EXPECT_EQ(hex(neg[0].second), hex(0xFFFFFFFE));
  EXPECT_EQ(hex(neg[2].second), hex(0x7FFFFFFF));
}

TEST(PtxAtomicLane, FloatReductionsRoundLikeTheArithmetic) {
  // red.add.f64 rounds to nearest: 1 + 2^-53 stays 1, 1 + 3 * 2^-53 goes up; f32 adds likewise.
  const auto f64 = per_lane("red.global.add.f64 [%inptr], 0d3CA0000000000000;", {f64_bits(1.0), f64_bits(1.0 + 0x1p-52)}, true);
  EXPECT_EQ(hex(f64[0].second), hex(f64_bits(1.0)));
  EXPECT_EQ(hex(f64[1].second), hex(f64_bits(1.0 + 0x1p-51)));
  const auto f32 = per_lane("atom.global.add.f32 %r0, [%inptr], 0f33800000;", {f32_bits(1.0f), f32_bits(0x1.000002p0f)}, false);
  EXPECT_EQ(hex(f32[0].second), hex(f32_bits(1.0f)));
  EXPECT_EQ(hex(f32[1].second), hex(f32_bits(0x1.000004p0f)));
  // bf16x2 (element 0 low): 1 + 2^-8 and 2 + 2^-7 are ties, to the even 1 and 2.
  const auto bf = per_lane("mov.b32 %r1, 0x3C003B80;\n atom.global.add.noftz.bf16x2 %r0, [%inptr], %r1;", {0x40003F80}, false);
  EXPECT_EQ(hex(bf[0].first), hex(0x40003F80));
  EXPECT_EQ(hex(bf[0].second), hex(0x40003F80));
}

}  // namespace
}  // namespace pkb::ptx_test
