// Block barriers: bar.sync with exited threads, bar.red (popc, and, or), named barriers with thread
// counts (producer bar.arrive, consumer bar.sync), barrier.sync from divergent code, fences.
#include "tests/ptx/instruction_cases.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

struct BlockRun {
  std::string fault;
  std::vector<u64> out;  // per thread
};

// One block of `threads` runs `body` with %tid32, scratch %t0-3 %r0-15 %p0-3 and %out, stored per
// thread at the end (a thread that returns early stores nothing: 0).
BlockRun run_block(const std::string& body, unsigned threads) {
  PtxFixture fixture;
  fixture.load(ptx_module(R"(
.visible .entry block(.param .u64 out)
{
  .reg .b64 %outp, %out, %t<4>;
  .reg .b32 %tid32, %r<16>;
  .reg .pred %p<4>;
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
  const u64 out = fixture.alloc(0, 8 * threads, "out");
  BlockRun run;
  run.fault = fixture.run("block", {1, 1, 1}, {threads, 1, 1}, [&](int) { return std::vector<std::string>{u64_param(out)}; });
  run.out = fixture.read<u64>(out, threads);
  return run;
}

TEST(PtxBarrier, BarSyncCountsExitedThreadsAsArrived) {
  // Threads 40-63 (part of warp 1) and, in the second run, all of warp 1 exit first.
  for (unsigned live : {40u, 32u}) {
    const BlockRun run = run_block(R"(
      .shared .align 4 .u32 s[64];
      setp.ge.u32 %p0, %tid32, )" + std::to_string(live) + R"(;
      @%p0 ret;
      mul.lo.u32 %r0, %tid32, 3;
      mov.u32 %r1, s;
      mad.lo.u32 %r2, %tid32, 4, %r1;
      st.shared.u32 [%r2], %r0;
      bar.sync 0;
      sub.u32 %r3, )" + std::to_string(live - 1) + R"(, %tid32;
      mad.lo.u32 %r4, %r3, 4, %r1;
      ld.shared.u32 %r5, [%r4];
      cvt.u64.u32 %out, %r5;
    )", 64);
    ASSERT_EQ(run.fault, "") << live;
    for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(run.out[t], t < live ? 3 * (live - 1 - t) : 0) << t;
  }
}

TEST(PtxBarrier, BarRedCombinesPredicatesAcrossTheBlock) {
  const BlockRun run = run_block(R"(
    rem.u32 %r0, %tid32, 3;
    setp.eq.u32 %p0, %r0, 0;
    bar.red.popc.u32 %r1, 0, %p0;
    bar.red.popc.u32 %r2, 1, !%p0;
    setp.lt.u32 %p1, %tid32, 200;
    bar.red.and.pred %p2, 0, %p1;
    bar.red.and.pred %p3, 2, %p0;
    selp.u32 %r3, 1, 0, %p2;
    selp.u32 %r4, 2, 0, %p3;
    setp.eq.u32 %p1, %tid32, 77;
    bar.red.or.pred %p2, 0, %p1;
    bar.red.or.pred %p3, 0, 128, !%p1;
    selp.u32 %r5, 4, 0, %p2;
    selp.u32 %r6, 8, 0, %p3;
    or.b32 %r3, %r3, %r4;
    or.b32 %r3, %r3, %r5;
    or.b32 %r3, %r3, %r6;
    mov.b64 %out, {%r1, %r2};
    cvt.u64.u32 %t0, %r3;
    shl.b64 %t0, %t0, 16;
    or.b64 %out, %out, %t0;
  )", 128);
  ASSERT_EQ(run.fault, "");
  // 43 of 0-127 are multiples of 3; all are below 200; not all are multiples of 3; one is 77.
  const u64 want = 43 | (85ull << 32) | ((1 | 0 | 4 | 8) << 16);
  for (unsigned t = 0; t < 128; ++t) EXPECT_EQ(hex(run.out[t]), hex(want)) << t;
}

TEST(PtxBarrier, NamedBarrierWithACountPairsProducersAndConsumers) {
  // Warps 0-1 write and bar.arrive on barrier 1 (count 128); warps 2-3 bar.sync on it and read.
  const BlockRun run = run_block(R"(
    .shared .align 4 .u32 s[64];
    mov.u32 %r1, s;
    setp.lt.u32 %p0, %tid32, 64;
    @!%p0 bra CONSUMER;
    add.u32 %r0, %tid32, 1000;
    mad.lo.u32 %r2, %tid32, 4, %r1;
    st.shared.u32 [%r2], %r0;
    bar.arrive 1, 128;
    mov.u64 %out, 1;
    bra DONE;
  CONSUMER:
    bar.sync 1, 128;
    sub.u32 %r3, %tid32, 64;
    mad.lo.u32 %r4, %r3, 4, %r1;
    ld.shared.u32 %r5, [%r4];
    cvt.u64.u32 %out, %r5;
  DONE:
    bar.sync 0;
  )", 128);
  ASSERT_EQ(run.fault, "");
  for (unsigned t = 0; t < 128; ++t) EXPECT_EQ(run.out[t], t < 64 ? 1 : 1000 + (t - 64)) << t;
}

TEST(PtxBarrier, BarrierSyncMayBeReachedFromDivergentCode) {
  // barrier.sync (not .aligned): the even lanes of each warp arrive at one site, the odd at
  // another; the barrier completes when all 64 threads arrived.
  const BlockRun run = run_block(R"(
    .shared .align 4 .u32 s[64];
    mov.u32 %r1, s;
    mad.lo.u32 %r2, %tid32, 4, %r1;
    st.shared.u32 [%r2], %tid32;
    and.b32 %r0, %tid32, 1;
    setp.eq.u32 %p0, %r0, 0;
    @%p0 bra EVEN;
    barrier.sync 0;
    bra JOIN;
  EVEN:
    barrier.sync 0;
  JOIN:
    xor.b32 %r3, %tid32, 63;
    mad.lo.u32 %r4, %r3, 4, %r1;
    ld.shared.u32 %r5, [%r4];
    cvt.u64.u32 %out, %r5;
  )", 64);
  ASSERT_EQ(run.fault, "");
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(run.out[t], t ^ 63) << t;
}

TEST(PtxBarrier, AlignedAndCtaFormsAndFences) {
  const BlockRun run = run_block(R"(
    .shared .align 4 .u32 s[96];
    mov.u32 %r1, s;
    mad.lo.u32 %r2, %tid32, 4, %r1;
    add.u32 %r0, %tid32, 7;
    st.shared.u32 [%r2], %r0;
    fence.acq_rel.cta;
    barrier.sync.aligned 0;
    sub.u32 %r3, 95, %tid32;
    mad.lo.u32 %r4, %r3, 4, %r1;
    ld.shared.u32 %r5, [%r4];
    barrier.cta.sync.aligned 2, 96;
    st.shared.u32 [%r2], %r5;
    membar.cta;
    fence.sc.gpu;
    bar.cta.sync 3;
    ld.shared.u32 %r6, [%r4];
    mov.b64 %out, {%r5, %r6};
  )", 96);
  ASSERT_EQ(run.fault, "");
  for (unsigned t = 0; t < 96; ++t) EXPECT_EQ(hex(run.out[t]), hex((u64{t + 7} << 32) | (95 - t + 7))) << t;
}

}  // namespace
}  // namespace pkb::ptx_test
