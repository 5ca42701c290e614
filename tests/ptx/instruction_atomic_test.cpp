// atom and red on global and shared memory: add from many lanes (distinct old values), cas, exch,
// inc/dec wrap rules, signed vs unsigned min/max, bitwise ops, f32/f64/f16x2/bf16x2 adds.
#include <algorithm>

#include "tests/ptx/float_reference.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

struct AtomRun {
  std::string fault;
  std::vector<u64> data;  // the 32 global words afterwards
  std::vector<u64> out;   // per thread
};

// `threads` threads of one block run `body` with %data (32 global .b64 words holding `data`),
// %tid32, scratch %t0-7 %r0-15 %h0-3 %f0-3 %fd0-3 %p0-3, and %out (stored per thread).
AtomRun run_atomic(const std::string& body, std::vector<u64> data, unsigned threads = 32) {
  PtxFixture fixture;
  fixture.load(ptx_module(R"(
.visible .entry atomics(.param .u64 data, .param .u64 out)
{
  .reg .b64 %data, %outp, %out, %t<8>;
  .reg .b32 %tid32, %r<16>;
  .reg .b16 %h<4>;
  .reg .f32 %f<4>;
  .reg .f64 %fd<4>;
  .reg .pred %p<4>;
  ld.param.u64 %data, [data];
  ld.param.u64 %outp, [out];
  mov.u32 %tid32, %tid.x;
  mul.wide.u32 %t0, %tid32, 8;
  add.s64 %outp, %outp, %t0;
  mov.b64 %out, 0;
  {
)" + body + R"(
  }
  st.global.u64 [%outp], %out;
  ret;
}
)"));
  const u64 words = fixture.alloc(0, 256, "data"), out = fixture.alloc(0, 8 * threads, "out");
  data.resize(32, 0);
  fixture.write(words, data);
  AtomRun run;
  run.fault = fixture.run("atomics", {1, 1, 1}, {threads, 1, 1}, [&](int) { return std::vector<std::string>{u64_param(words), u64_param(out)}; });
  run.data = fixture.read<u64>(words, 32);
  run.out = fixture.read<u64>(out, threads);
  return run;
}

// Every thread added `value(t)` and got `out[t]`: the old values, ordered, must each be the previous
// one plus that thread's addend (each add saw all earlier ones and nothing else).
void expect_serialized_adds(const AtomRun& run, u64 start, const std::function<u64(unsigned)>& value, u64 final) {
  std::vector<std::pair<u64, u64>> seen;
  for (unsigned t = 0; t < run.out.size(); ++t) seen.push_back({run.out[t], value(t)});
  std::sort(seen.begin(), seen.end());
  u64 expect = start;
  for (const auto& [old, added] : seen) {
    EXPECT_EQ(old, expect);
    expect = old + added;
  }
  EXPECT_EQ(run.data[0], final);
}

TEST(PtxAtomic, GlobalAddFromEveryLaneReturnsDistinctOldValues) {
  for (unsigned threads : {32u, 96u}) {
    const AtomRun run = run_atomic("add.u32 %r0, %tid32, 1;\n atom.global.add.u32 %r1, [%data], %r0;\n cvt.u64.u32 %out, %r1;", {5}, threads);
    ASSERT_EQ(run.fault, "");
    expect_serialized_adds(run, 5, [](unsigned t) { return t + 1; }, 5 + threads * (threads + 1) / 2);
  }
  const AtomRun wide = run_atomic("cvt.u64.u32 %t0, %tid32;\n shl.b64 %t0, %t0, 33;\n atom.global.add.u64 %out, [%data], %t0;", {1});
  ASSERT_EQ(wide.fault, "");
  expect_serialized_adds(wide, 1, [](unsigned t) { return u64{t} << 33; }, 1 + (496ull << 33));
}

TEST(PtxAtomic, CasHasOneWinnerAndExchPermutesTheValues) {
  const AtomRun cas = run_atomic("add.u32 %r0, %tid32, 1;\n atom.global.cas.b32 %r1, [%data], 0, %r0;\n cvt.u64.u32 %out, %r1;", {0});
  ASSERT_EQ(cas.fault, "");
  const u64 winner = cas.data[0];
  ASSERT_GE(winner, 1u);
  ASSERT_LE(winner, 32u);
  for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(cas.out[t], t + 1 == winner ? 0 : winner) << t;
  // cas.b64 compares all 64 bits: a mismatch in the high word leaves memory alone.
  const AtomRun cas64 = run_atomic(R"(
    setp.eq.u32 %p0, %tid32, 0;
    @!%p0 ret;
    mov.u64 %t1, 0x100000007;
    atom.global.cas.b64 %out, [%data], 7, 9;
    atom.global.cas.b64 %t2, [%data+8], %t1, 11;
  )", {0x100000007, 0x100000007}, 1);
  ASSERT_EQ(cas64.fault, "");
  EXPECT_EQ(hex(cas64.out[0]), hex(0x100000007));
  EXPECT_EQ(hex(cas64.data[0]), hex(0x100000007));
  EXPECT_EQ(hex(cas64.data[1]), hex(11));
  const AtomRun exch = run_atomic("add.u32 %r0, %tid32, 100;\n atom.global.exch.b32 %r1, [%data], %r0;\n cvt.u64.u32 %out, %r1;", {7});
  ASSERT_EQ(exch.fault, "");
  std::vector<u64> all = exch.out;
  all.push_back(exch.data[0]);
  std::sort(all.begin(), all.end());
  std::vector<u64> want = {7};
  for (u64 t = 0; t < 32; ++t) want.push_back(100 + t);
  EXPECT_EQ(all, want);
}

TEST(PtxAtomic, IncAndDecWrapAtTheBound) {
  // inc: new = old >= b ? 0 : old + 1; dec: new = (old == 0 || old > b) ? b : old - 1.
  const std::string body = R"(
    setp.eq.u32 %p0, %tid32, 0;
    @!%p0 ret;
    atom.global.inc.u32 %r0, [%data], 3;
    atom.global.inc.u32 %r1, [%data], 3;
    atom.global.inc.u32 %r2, [%data], 3;
    atom.global.inc.u32 %r3, [%data], 3;
    atom.global.inc.u32 %r4, [%data+8], 3;
    atom.global.dec.u32 %r5, [%data+16], 3;
    atom.global.dec.u32 %r6, [%data+16], 3;
    atom.global.dec.u32 %r7, [%data+16], 3;
    atom.global.dec.u32 %r8, [%data+24], 3;
    mov.b64 %t0, {%r0, %r1};  st.global.u64 [%data+32], %t0;
    mov.b64 %t0, {%r2, %r3};  st.global.u64 [%data+40], %t0;
    mov.b64 %t0, {%r5, %r6};  st.global.u64 [%data+48], %t0;
    mov.b64 %t0, {%r7, %r4};  st.global.u64 [%data+56], %t0;
  )";
  const AtomRun run = run_atomic(body, {2, 10, 1, 10}, 1);
  ASSERT_EQ(run.fault, "");
  EXPECT_EQ(run.data[0], 2u);              // 2 -> 3 -> 0 -> 1 -> 2
  EXPECT_EQ(run.data[1], 0u);              // 10 >= 3 -> 0
  EXPECT_EQ(run.data[2], 2u);              // 1 -> 0 -> 3 -> 2
  EXPECT_EQ(run.data[3], 3u);              // 10 > 3 -> 3
  EXPECT_EQ(hex(run.data[4]), hex(0x0000000300000002));  // olds 2, 3
  EXPECT_EQ(hex(run.data[5]), hex(0x0000000100000000));  // olds 0, 1
  EXPECT_EQ(hex(run.data[6]), hex(0x0000000000000001));  // olds 1, 0
  EXPECT_EQ(hex(run.data[7]), hex(0x0000000A00000003));  // old 3, and inc's old 10
}

TEST(PtxAtomic, MinMaxAreSignedOrUnsignedByType) {
  const std::string body = R"(
    setp.eq.u32 %p0, %tid32, 0;
    @!%p0 ret;
    atom.global.min.s32 %r0, [%data], 3;
    atom.global.min.u32 %r1, [%data+8], 3;
    atom.global.max.s32 %r2, [%data+16], 3;
    atom.global.max.u32 %r3, [%data+24], 3;
    atom.global.min.s64 %t0, [%data+32], 3;
    atom.global.max.u64 %t1, [%data+40], 3;
    cvt.u64.u32 %out, %r0;
  )";
  const u64 m5 = 0xFFFFFFFB, m5w = 0xFFFFFFFFFFFFFFFB;
  const AtomRun run = run_atomic(body, {m5, m5, m5, m5, m5w, m5w}, 1);
  ASSERT_EQ(run.fault, "");
  EXPECT_EQ(hex(run.out[0]), hex(m5));
  EXPECT_EQ(hex(run.data[0]), hex(m5));  // min.s32(-5, 3) = -5
  EXPECT_EQ(hex(run.data[1]), hex(3));   // min.u32(0xfffffffb, 3) = 3
  EXPECT_EQ(hex(run.data[2]), hex(3));   // max.s32(-5, 3) = 3
  EXPECT_EQ(hex(run.data[3]), hex(m5));
  EXPECT_EQ(hex(run.data[4]), hex(m5w));
  EXPECT_EQ(hex(run.data[5]), hex(m5w));
}

TEST(PtxAtomic, BitwiseOpsFromEveryLane) {
  const AtomRun run = run_atomic(R"(
    shl.b32 %r0, 1, %tid32;
    atom.global.or.b32 %r1, [%data], %r0;
    not.b32 %r2, %r0;
    atom.global.and.b32 %r3, [%data+8], %r2;
    atom.global.xor.b32 %r4, [%data+16], %r0;
    cvt.u64.u32 %t0, %r0;
    atom.global.xor.b64 %t1, [%data+24], %t0;
  )", {0, 0xFFFFFFFF, 0x0F0F0F0F, 0xFFFF000000000000});
  ASSERT_EQ(run.fault, "");
  EXPECT_EQ(hex(run.data[0]), hex(0xFFFFFFFF));
  EXPECT_EQ(hex(run.data[1]), hex(0));
  EXPECT_EQ(hex(run.data[2]), hex(0xF0F0F0F0));
  EXPECT_EQ(hex(run.data[3]), hex(0xFFFF0000FFFFFFFF));
}

TEST(PtxAtomic, FloatAddsOfEveryWidth) {
  // 32 lanes add 0.5f (exact): 16; f64 adds 0.25: 8.
  const AtomRun f32 = run_atomic(R"(
    atom.global.add.f32 %f0, [%data], 0f3F000000;
    atom.global.add.f64 %fd0, [%data+8], 0d3FD0000000000000;
    mov.b32 %r0, %f0;
    cvt.u64.u32 %out, %r0;
  )", {});
  ASSERT_EQ(f32.fault, "");
  EXPECT_EQ(hex(f32.data[0]), hex(f32_bits(16.0f)));
  EXPECT_EQ(hex(f32.data[1]), hex(f64_bits(8.0)));
  std::vector<float> olds;
  for (u64 v : f32.out) olds.push_back(f32_of(v));
  std::sort(olds.begin(), olds.end());
  for (int t = 0; t < 32; ++t) EXPECT_EQ(olds[t], 0.5f * t);
  // Packed halves, element 0 low: bf16x2 (1, 2) + (0.5, 0.25) = (1.5, 2.25); f16x2 likewise.
  const AtomRun half = run_atomic(R"(
    setp.eq.u32 %p0, %tid32, 0;
    @!%p0 ret;
    mov.b32 %r0, 0x3E803F00;
    atom.global.add.noftz.bf16x2 %r1, [%data], %r0;
    mov.b32 %r2, 0x34003800;
    atom.global.add.noftz.f16x2 %r3, [%data+8], %r2;
    mov.b16 %h0, 0x3800;
    atom.global.add.noftz.f16 %h1, [%data+16], %h0;
    mov.b16 %h2, 0x3F00;
    atom.global.add.noftz.bf16 %h3, [%data+24], %h2;
    cvt.u64.u32 %out, %r1;
  )", {0x40003F80, 0x40003C00, 0x3C00, 0x3F80}, 1);
  ASSERT_EQ(half.fault, "");
  EXPECT_EQ(hex(half.out[0]), hex(0x40003F80));
  EXPECT_EQ(hex(half.data[0]), hex(0x40103FC0));
  EXPECT_EQ(hex(half.data[1]), hex(0x40803E00));
  EXPECT_EQ(hex(half.data[2]), hex(0x3E00));
  EXPECT_EQ(hex(half.data[3]), hex(0x3FC0));
}

TEST(PtxAtomic, ReductionsWithoutResults) {
  const AtomRun run = run_atomic(R"(
    add.u32 %r0, %tid32, 1;
    red.global.add.u32 [%data], %r0;
    sub.s32 %r1, 10, %tid32;
    red.global.min.s32 [%data+8], %r1;
    shl.b32 %r2, 1, %tid32;
    red.global.or.b32 [%data+16], %r2;
    red.global.add.f32 [%data+24], 0f3F800000;
    red.relaxed.gpu.global.add.u64 [%data+32], 3;
    red.release.sys.global.max.u32 [%data+40], %r0;
    mov.b32 %r3, 0x3C003C00;
    red.global.add.noftz.f16x2 [%data+48], %r3;
    red.global.xor.b32 [%data+56], %r2;
  )", {0, 100, 0, 0, 1, 0, 0, 0xFFFF});
  ASSERT_EQ(run.fault, "");
  EXPECT_EQ(run.data[0], 528u);
  EXPECT_EQ(hex(run.data[1]), hex(0xFFFFFFEB));  // 10 - 31 = -21
  EXPECT_EQ(hex(run.data[2]), hex(0xFFFFFFFF));
  EXPECT_EQ(hex(run.data[3]), hex(f32_bits(32.0f)));
  EXPECT_EQ(run.data[4], 97u);
  EXPECT_EQ(run.data[5], 32u);
  EXPECT_EQ(hex(run.data[6]), hex(0x50005000));  // 32 adds of 1.0 per element: f16 32.0 is 0x5000
  EXPECT_EQ(hex(run.data[7]), hex(0xFFFF0000));
}

TEST(PtxAtomic, SharedMemoryAtomicsAcrossWarps) {
  const AtomRun run = run_atomic(R"(
    .shared .align 8 .b8 s[64];
    setp.eq.u32 %p0, %tid32, 0;
    mov.u64 %t0, 0;
    @%p0 st.shared.v2.u64 [s], {%t0, %t0};
    @%p0 st.shared.v2.u64 [s+16], {%t0, %t0};
    @%p0 st.shared.v2.u64 [s+32], {%t0, %t0};
    bar.sync 0;
    add.u32 %r0, %tid32, 1;
    atom.shared.add.u32 %r1, [s], %r0;
    atom.shared.cas.b32 %r2, [s+4], 0, %r0;
    atom.shared.inc.u32 %r3, [s+8], 9;
    atom.shared.add.f32 %f0, [s+12], 0f3F000000;
    atom.shared.exch.b64 %t1, [s+16], 5;
    red.shared.add.u32 [s+24], 2;
    mov.u64 %t2, s;
    cvta.shared.u64 %t3, %t2;
    atom.add.u32 %r4, [%t3+28], 1;       // generic address of shared memory
    atom.acq_rel.cta.shared.max.s32 %r5, [s+32], %r0;
    bar.sync 0;
    @%p0 ld.shared.v4.u32 {%r6, %r7, %r8, %r9}, [s];
    @%p0 ld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [s+16];
    @%p0 ld.shared.u32 %r14, [s+32];
    @%p0 st.global.v4.u32 [%data], {%r6, %r7, %r8, %r9};
    @%p0 st.global.v4.u32 [%data+16], {%r10, %r11, %r12, %r13};
    @%p0 st.global.u32 [%data+32], %r14;
    cvt.u64.u32 %out, %r1;
  )", {}, 64);
  ASSERT_EQ(run.fault, "");
  expect_serialized_adds(AtomRun{"", {run.data[0] & 0xFFFFFFFF}, run.out}, 0, [](unsigned t) { return t + 1; }, 2080);
  const u64 winner = run.data[0] >> 32;
  EXPECT_TRUE(winner >= 1 && winner <= 64) << winner;
  EXPECT_EQ(hex(run.data[1]), hex(u64{f32_bits(32.0f)} << 32 | (64 % 10)));  // inc wraps at 9: 64 incs from 0
  EXPECT_EQ(run.data[2], 5u);
  EXPECT_EQ(hex(run.data[3]), hex(u64{64} << 32 | 128));
  EXPECT_EQ(run.data[4], 64u);
}

TEST(PtxAtomic, VectorFloatAddOnSm90) {
  const AtomRun run = run_atomic(R"(
    mov.f32 %f0, 0f3F800000;
    mov.f32 %f1, 0f40000000;
    atom.global.add.v2.f32 {%f2, %f3}, [%data], {%f0, %f1};
  )", {});
  ASSERT_EQ(run.fault, "");
  EXPECT_EQ(hex(run.data[0]), hex(u64{f32_bits(64.0f)} << 32 | f32_bits(32.0f)));
}

}  // namespace
}  // namespace pkb::ptx_test
