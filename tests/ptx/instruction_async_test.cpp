// Asynchronous copies and mbarriers: cp.async 4/8/16 bytes with commit_group / wait_group /
// wait_all, src-size zero fill and ignore-src, cp.async.mbarrier.arrive; mbarrier init, arrive,
// test_wait / try_wait (with .parity) over two phases, and the bulk copy with expect_tx.
#include "tests/ptx/instruction_cases.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

struct AsyncRun {
  std::string fault;
  std::vector<std::uint8_t> out;  // 2048 bytes
};

// A block of `threads` runs `body` with %src (512 global bytes, byte i = i * 7 + 1), %dst (2048
// zeroed global bytes), %tid32 and scratch %t0-7 %r0-15 %p0-3.
AsyncRun run_async(const std::string& body, unsigned threads) {
  PtxFixture fixture;
  fixture.load(ptx_module(R"(
.visible .entry async(.param .u64 src, .param .u64 dst)
{
  .reg .b64 %src, %dst, %t<8>;
  .reg .b32 %tid32, %r<16>;
  .reg .pred %p<4>;
  ld.param.u64 %src, [src];
  ld.param.u64 %dst, [dst];
  mov.u32 %tid32, %tid.x;
  {
)" + body + R"(
  }
  ret;
}
)"));
  const u64 src = fixture.alloc(0, 512, "src"), dst = fixture.alloc(0, 2048, "dst");
  std::vector<std::uint8_t> bytes(512);
  for (int i = 0; i < 512; ++i) bytes[i] = static_cast<std::uint8_t>(i * 7 + 1);
  fixture.write(src, bytes);
  AsyncRun run;
  run.fault = fixture.run("async", {1, 1, 1}, {threads, 1, 1}, [&](int) { return std::vector<std::string>{u64_param(src), u64_param(dst)}; });
  run.out = fixture.read<std::uint8_t>(dst, 2048);
  return run;
}

std::uint8_t src_byte(int i) { return static_cast<std::uint8_t>(i * 7 + 1); }

// Copies `bytes` of shared memory starting at `from` to %dst, 4 bytes per thread per step.
std::string copy_out(const std::string& from, int bytes, int threads) {
  std::string text = "mov.u32 %r10, " + from + ";\n mad.lo.u32 %r10, %tid32, 4, %r10;\n mul.wide.u32 %t6, %tid32, 4;\n add.s64 %t6, %dst, %t6;\n";
  for (int at = 0; at < bytes; at += 4 * threads)
    text += "ld.shared.u32 %r11, [%r10+" + std::to_string(at) + "];\n st.global.u32 [%t6+" + std::to_string(at) + "], %r11;\n";
  return text;
}

TEST(PtxAsync, CpAsyncCopiesZeroFillsAndWaitsForGroups) {
  const AsyncRun run = run_async(R"(
    .shared .align 16 .b8 sm[1536];
    mov.u32 %r0, sm;
    mad.lo.u32 %r1, %tid32, 48, %r0;
    mov.u32 %r2, 0xEEEEEEEE;
    st.shared.v4.u32 [%r1], {%r2, %r2, %r2, %r2};
    st.shared.v4.u32 [%r1+16], {%r2, %r2, %r2, %r2};
    st.shared.v4.u32 [%r1+32], {%r2, %r2, %r2, %r2};
    bar.sync 0;
    mul.wide.u32 %t0, %tid32, 16;
    add.s64 %t1, %src, %t0;
    mad.lo.u32 %r3, %tid32, 16, %r0;
    cp.async.ca.shared.global [%r3], [%t1], 16;
    mul.wide.u32 %t0, %tid32, 8;
    add.s64 %t2, %src, %t0;
    mad.lo.u32 %r4, %tid32, 8, %r0;
    cp.async.ca.shared.global [%r4+512], [%t2], 8;
    mul.wide.u32 %t0, %tid32, 4;
    add.s64 %t3, %src, %t0;
    mad.lo.u32 %r5, %tid32, 4, %r0;
    cp.async.ca.shared.global [%r5+768], [%t3], 4;
    cp.async.commit_group;
    mad.lo.u32 %r6, %tid32, 16, 256;
    and.b32 %r6, %r6, 511;
    cvt.u64.u32 %t4, %r6;
    add.s64 %t4, %src, %t4;
    cp.async.cg.shared.global [%r3+1024], [%t4], 16;
    setp.eq.u32 %p0, %tid32, %tid32;
    cp.async.ca.shared.global [%r5+896], [%t3], 4, %p0;
    cp.async.commit_group;
    cp.async.wait_group 1;
    cp.async.wait_all;
    bar.sync 0;
  )" + copy_out("sm", 1536, 32), 32);
  ASSERT_EQ(run.fault, "");
  for (int i = 0; i < 512; ++i) EXPECT_EQ(hex(run.out[i]), hex(src_byte(i))) << "16-byte copies, byte " << i;
  for (int i = 0; i < 256; ++i) EXPECT_EQ(hex(run.out[512 + i]), hex(src_byte(i))) << "8-byte copies, byte " << i;
  for (int i = 0; i < 128; ++i) EXPECT_EQ(hex(run.out[768 + i]), hex(src_byte(i))) << "4-byte copies, byte " << i;
  for (int i = 0; i < 128; ++i) EXPECT_EQ(hex(run.out[896 + i]), hex(0)) << "ignore-src copies, byte " << i;
  for (int i = 0; i < 512; ++i) EXPECT_EQ(hex(run.out[1024 + i]), hex(src_byte((256 + i) % 512))) << ".cg copies, byte " << i;
}

// Thread t copies 16 bytes of src + 16t with src-size `size` into shared memory filled with 0xee:
// the first `size` bytes come from src, the rest are zero.
void expect_src_size(int size) {
  const AsyncRun run = run_async(R"(
    .shared .align 16 .b8 sm[512];
    mov.u32 %r0, sm;
    mad.lo.u32 %r1, %tid32, 16, %r0;
    mov.u32 %r2, 0xEEEEEEEE;
    st.shared.v4.u32 [%r1], {%r2, %r2, %r2, %r2};
    mul.wide.u32 %t0, %tid32, 16;
    add.s64 %t1, %src, %t0;
    cp.async.ca.shared.global [%r1], [%t1], 16, )" + std::to_string(size) + R"(;
    cp.async.commit_group;
    cp.async.wait_group 0;
    bar.sync 0;
  )" + copy_out("sm", 512, 32), 32);
  ASSERT_EQ(run.fault, "") << "src-size " << size;
  for (int i = 0; i < 512; ++i) EXPECT_EQ(hex(run.out[i]), hex(i % 16 < size ? src_byte(i) : 0)) << "src-size " << size << ", byte " << i;
}

TEST(PtxAsync, CpAsyncSrcSizeZeroFillsTheRest) {
  expect_src_size(0);
  expect_src_size(8);
  expect_src_size(4);
}

TEST(PtxAsync, CpAsyncSrcSizeNeedNotBeAPowerOfTwo) {
  // Any src-size below cp-size is allowed; the source needs only cp-size's alignment.
  expect_src_size(5);
  expect_src_size(13);
}

TEST(PtxAsync, SharedDeclarationsMayListSeveralNames) {
  // `.shared .b64 shMem, shMem2;` is the ISA's own mbarrier example.
  const AsyncRun run = run_async(R"(
    .shared .align 8 .b64 one, two;
    mov.u64 %t0, 5;
    st.shared.u64 [one], %t0;
    mov.u64 %t0, 7;
    st.shared.u64 [two], %t0;
    ld.shared.u64 %t1, [one];
    st.global.u64 [%dst], %t1;
    ld.shared.u64 %t1, [two];
    st.global.u64 [%dst+8], %t1;
  )", 1);
  ASSERT_EQ(run.fault, "");
  EXPECT_EQ(run.out[0], 5);
  EXPECT_EQ(run.out[8], 7);
}

TEST(PtxAsync, CpAsyncMbarrierArriveCompletesThePhase) {
  const AsyncRun run = run_async(R"(
    .shared .align 16 .b8 sm[512];
    .shared .align 8 .b64 bar;
    setp.eq.u32 %p0, %tid32, 0;
    @%p0 mbarrier.init.shared.b64 [bar], 32;
    bar.sync 0;
    mov.u32 %r0, sm;
    mad.lo.u32 %r1, %tid32, 16, %r0;
    mul.wide.u32 %t0, %tid32, 16;
    add.s64 %t1, %src, %t0;
    cp.async.cg.shared.global [%r1], [%t1], 16;
    cp.async.mbarrier.arrive.noinc.shared.b64 [bar];
  WAIT:
    mbarrier.try_wait.parity.shared.b64 %p1, [bar], 0;
    @!%p1 bra WAIT;
  )" + copy_out("sm", 512, 32), 32);
  ASSERT_EQ(run.fault, "");
  for (int i = 0; i < 512; ++i) EXPECT_EQ(hex(run.out[i]), hex(src_byte(i))) << i;
}

TEST(PtxAsync, MbarrierPhasesAndParity) {
  // Before any arrival: parity 0 (the current phase) is incomplete, parity 1 (the one before)
  // complete. After all 64 arrivals phase 0 is complete and phase 1 current.
  const AsyncRun run = run_async(R"(
    .shared .align 8 .b64 bar;
    setp.eq.u32 %p0, %tid32, 0;
    @%p0 mbarrier.init.shared.b64 [bar], 64;
    bar.sync 0;
    mbarrier.test_wait.parity.shared.b64 %p1, [bar], 0;
    mbarrier.test_wait.parity.shared.b64 %p2, [bar], 1;
    selp.u32 %r0, 1, 0, %p1;
    selp.u32 %r1, 2, 0, %p2;
    or.b32 %r0, %r0, %r1;
    bar.sync 0;
    mbarrier.arrive.shared.b64 %t0, [bar];
  SPIN:
    mbarrier.test_wait.shared.b64 %p3, [bar], %t0;
    @!%p3 bra SPIN;
    mbarrier.test_wait.parity.shared.b64 %p1, [bar], 0;
    mbarrier.test_wait.parity.shared.b64 %p2, [bar], 1;
    selp.u32 %r2, 4, 0, %p1;
    selp.u32 %r3, 8, 0, %p2;
    or.b32 %r0, %r0, %r2;
    or.b32 %r0, %r0, %r3;
    mul.wide.u32 %t1, %tid32, 4;
    add.s64 %t1, %dst, %t1;
    st.global.u32 [%t1], %r0;
  )", 64);
  ASSERT_EQ(run.fault, "");
  for (int t = 0; t < 64; ++t) EXPECT_EQ(run.out[4 * t], 2 | 4) << t;
}

TEST(PtxAsync, MbarrierHandsDataFromAProducerWarpToAConsumerTwice) {
  // Warp 0 writes s[lane] (round 1: lane + 10, round 2: lane + 20), arrives (release); warp 1
  // try_waits on parity 0, then 1, and reads s[lane].
  const AsyncRun run = run_async(R"(
    .shared .align 8 .b64 bar;
    .shared .align 4 .u32 s[32];
    setp.eq.u32 %p0, %tid32, 0;
    @%p0 mbarrier.init.shared.b64 [bar], 32;
    bar.sync 0;
    and.b32 %r0, %tid32, 31;
    mov.u32 %r1, s;
    mad.lo.u32 %r1, %r0, 4, %r1;
    setp.lt.u32 %p1, %tid32, 32;
    @!%p1 bra CONSUMER;
    add.u32 %r2, %r0, 10;
    st.shared.u32 [%r1], %r2;
    mbarrier.arrive.release.cta.shared.b64 %t0, [bar];
    // round 2 starts once the consumer has read round 1 (named barrier 1, both warps)
    bar.sync 1, 64;
    add.u32 %r2, %r0, 20;
    st.shared.u32 [%r1], %r2;
    mbarrier.arrive.release.cta.shared.b64 %t0, [bar];
    bra DONE;
  CONSUMER:
  WAIT0:
    mbarrier.try_wait.parity.acquire.cta.shared.b64 %p2, [bar], 0;
    @!%p2 bra WAIT0;
    ld.shared.u32 %r3, [%r1];
    bar.sync 1, 64;
  WAIT1:
    mbarrier.try_wait.parity.shared.b64 %p2, [bar], 1;
    @!%p2 bra WAIT1;
    ld.shared.u32 %r4, [%r1];
    mul.wide.u32 %t1, %r0, 8;
    add.s64 %t1, %dst, %t1;
    st.global.v2.u32 [%t1], {%r3, %r4};
  DONE:
  )", 64);
  ASSERT_EQ(run.fault, "");
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(run.out[8 * lane], lane + 10) << lane;
    EXPECT_EQ(run.out[8 * lane + 4], lane + 20) << lane;
  }
}

TEST(PtxAsync, MbarrierArriveWithACount) {
  // One thread arrives with count 3 on a barrier expecting 4: still pending; one more completes it.
  const AsyncRun run = run_async(R"(
    .shared .align 8 .b64 bar;
    mbarrier.init.shared.b64 [bar], 4;
    mbarrier.arrive.shared.b64 %t0, [bar], 3;
    mbarrier.test_wait.parity.shared.b64 %p0, [bar], 0;
    mbarrier.arrive.shared.b64 %t1, [bar];
    mbarrier.test_wait.parity.shared.b64 %p1, [bar], 0;
    selp.u32 %r0, 1, 0, %p0;
    selp.u32 %r1, 2, 0, %p1;
    or.b32 %r0, %r0, %r1;
    st.global.u32 [%dst], %r0;
  )", 1);
  ASSERT_EQ(run.fault, "");
  EXPECT_EQ(run.out[0], 2);
}

TEST(PtxAsync, BulkCopyCompletesTheTransactionCountOfAnMbarrier) {
  const AsyncRun run = run_async(R"(
    .shared .align 8 .b64 tx;
    .shared .align 16 .b8 sm[64];
    mbarrier.init.shared.b64 [tx], 1;
    mbarrier.arrive.expect_tx.shared.b64 %t1, [tx], 64;
    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [sm], [%src], 64, [tx];
  WAIT:
    mbarrier.try_wait.parity.shared.b64 %p1, [tx], 0;
    @!%p1 bra WAIT;
    ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [sm+48];
    st.global.v4.u32 [%dst], {%r1, %r2, %r3, %r4};
  )", 1);
  ASSERT_EQ(run.fault, "");
  for (int i = 0; i < 16; ++i) EXPECT_EQ(hex(run.out[i]), hex(src_byte(48 + i))) << i;
}

}  // namespace
}  // namespace pkb::ptx_test
