// Bulk copies and transaction counts beyond the golden cases: a global-to-shared copy lands only
// when a thread waits on its mbarrier (stale bytes before) and its issue wakes parked waiters,
// tx-counts that go negative, pending counts from state tokens, shared-to-global bulk groups with
// wait_group and wait_group.read, bulk reductions, the checks at issue, and cache-policy operands
// after cp.async's src-size and on atomics.
#include "tests/ptx/instruction_cases.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

struct BulkRun {
  std::string fault;
  ptx::Fault::Kind kind = ptx::Fault::Kind::memory;
  std::vector<std::uint32_t> out;  // 64 words of dst
  std::uint64_t clock_jumps = 0;
};

// One block of `threads` runs `body` with %src (256 global bytes, byte i = i * 7 + 1), %dst (256
// zeroed global bytes), %tid32, a 64-byte shared buffer sm filled with 0x11, an mbarrier tx and
// scratch %t0-7 %r0-15 %p0-3.
BulkRun run_bulk(const std::string& body, unsigned threads = 1) {
  PtxFixture fixture;
  fixture.load(ptx_module(R"(
.visible .entry bulk(.param .u64 src, .param .u64 dst)
{
  .reg .b64 %src, %dst, %t<8>;
  .reg .b32 %tid32, %r<16>;
  .reg .pred %p<4>;
  .shared .align 8 .b64 tx;
  .shared .align 16 .b8 sm[64];
  ld.param.u64 %src, [src];
  ld.param.u64 %dst, [dst];
  mov.u32 %tid32, %tid.x;
  mov.u32 %r15, 0x11111111;
  st.shared.v4.u32 [sm], {%r15, %r15, %r15, %r15};
  st.shared.v4.u32 [sm+16], {%r15, %r15, %r15, %r15};
  st.shared.v4.u32 [sm+32], {%r15, %r15, %r15, %r15};
  st.shared.v4.u32 [sm+48], {%r15, %r15, %r15, %r15};
  bar.sync 0;
  {
)" + body + R"(
  }
  ret;
}
)"));
  const u64 src = fixture.alloc(0, 256, "src"), dst = fixture.alloc(0, 256, "dst");
  std::vector<std::uint8_t> bytes(256);
  for (int i = 0; i < 256; ++i) bytes[i] = static_cast<std::uint8_t>(i * 7 + 1);
  fixture.write(src, bytes);
  BulkRun run;
  run.fault = fixture.run("bulk", {1, 1, 1}, {threads, 1, 1}, [&](int) {
    return std::vector<std::string>{u64_param(src), u64_param(dst)};
  });
  run.kind = fixture.fault_kind();
  run.clock_jumps = fixture.machine().stats().clock_jumps;
  run.out = fixture.read<std::uint32_t>(dst, 64);
  return run;
}

// The little-endian word of source bytes 4w .. 4w + 3.
std::uint32_t src_word(int w) {
  std::uint32_t v = 0;
  for (int b = 3; b >= 0; --b) v = v << 8 | static_cast<std::uint8_t>((4 * w + b) * 7 + 1);
  return v;
}

TEST(PtxBulk, AGlobalToSharedCopyLandsWhenAThreadWaitsOnItsMbarrier) {
  const BulkRun run = run_bulk(R"(
    mbarrier.init.shared.b64 [tx], 1;
    mbarrier.arrive.expect_tx.relaxed.cta.shared::cta.b64 _, [tx], 64;
    cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [sm], [%src], 64, [tx];
    ld.shared.u32 %r1, [sm+4];
  WAIT:
    mbarrier.try_wait.parity.shared.b64 %p1, [tx], 0;
    @!%p1 bra WAIT;
    ld.shared.u32 %r2, [sm+4];
    st.global.v2.u32 [%dst], {%r1, %r2};
  )");
  ASSERT_EQ(run.fault, "");
  EXPECT_EQ(hex(run.out[0]), hex(0x11111111)) << "read before the wait: the old bytes";
  EXPECT_EQ(hex(run.out[1]), hex(src_word(1)));
}

TEST(PtxBulk, CopiesForOneMbarrierFromManyThreadsCompleteItsPhaseTogether) {
  // Four threads each copy 16 bytes; one expects all 64. A second warp waits and reads.
  const BulkRun run = run_bulk(R"(
    setp.eq.u32 %p0, %tid32, 0;
    @%p0 mbarrier.init.shared.b64 [tx], 1;
    bar.sync 0;
    setp.lt.u32 %p2, %tid32, 4;
    @!%p2 bra CONSUMER;
    @%p0 mbarrier.arrive.expect_tx.shared.b64 %t0, [tx], 64;
    mov.u32 %r0, sm;
    mad.lo.u32 %r0, %tid32, 16, %r0;
    mul.wide.u32 %t1, %tid32, 16;
    add.s64 %t1, %src, %t1;
    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r0], [%t1], 16, [tx];
    bra DONE;
  CONSUMER:
    setp.lt.u32 %p3, %tid32, 32;
    @%p3 bra DONE;
  WAIT:
    mbarrier.try_wait.parity.acquire.cta.shared.b64 %p1, [tx], 0;
    @!%p1 bra WAIT;
    sub.u32 %r1, %tid32, 32;
    and.b32 %r1, %r1, 15;
    mov.u32 %r2, sm;
    mad.lo.u32 %r2, %r1, 4, %r2;
    ld.shared.u32 %r3, [%r2];
    mul.wide.u32 %t2, %r1, 4;
    add.s64 %t2, %dst, %t2;
    st.global.u32 [%t2], %r3;
  DONE:
  )",
                               64);
  ASSERT_EQ(run.fault, "");
  for (int w = 0; w < 16; ++w) EXPECT_EQ(hex(run.out[w]), hex(src_word(w))) << w;
}

TEST(PtxBulk, AWaiterParkedBeforeTheCopyIsIssuedIsWokenByIt) {
  // Thread 0 busy-loops (the waiting warp parks), arrives expecting 64 bytes, loops again (it
  // parks again: bytes pending) and issues the copy: the issue wakes it, no clock jump needed.
  const BulkRun run = run_bulk(R"(
    setp.eq.u32 %p0, %tid32, 0;
    @%p0 mbarrier.init.shared.b64 [tx], 1;
    bar.sync 0;
    setp.lt.u32 %p2, %tid32, 32;
    @%p2 bra PRODUCER;
  WAIT:
    mbarrier.try_wait.parity.shared.b64 %p1, [tx], 0;
    @!%p1 bra WAIT;
    ld.shared.u32 %r3, [sm+4];
    st.global.u32 [%dst], %r3;
    bra DONE;
  PRODUCER:
    @!%p0 bra DONE;
    mov.u32 %r5, 0;
  LOOP1:
    add.u32 %r5, %r5, 1;
    setp.lt.u32 %p3, %r5, 3000;
    @%p3 bra LOOP1;
    mbarrier.arrive.expect_tx.shared.b64 _, [tx], 64;
    mov.u32 %r5, 0;
  LOOP2:
    add.u32 %r5, %r5, 1;
    setp.lt.u32 %p3, %r5, 3000;
    @%p3 bra LOOP2;
    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [sm], [%src], 64, [tx];
  DONE:
  )",
                               64);
  ASSERT_EQ(run.fault, "");
  EXPECT_EQ(hex(run.out[0]), hex(src_word(1)));
  EXPECT_EQ(run.clock_jumps, 0u);
}

TEST(PtxBulk, TxCountMayGoNegativeAndExpectTxCompletesThePhase) {
  const BulkRun run = run_bulk(R"(
    mbarrier.init.shared.b64 [tx], 1;
    mbarrier.complete_tx.shared.b64 [tx], 32;
    mbarrier.arrive.shared.b64 %t0, [tx];
    mbarrier.test_wait.parity.shared.b64 %p0, [tx], 0;
    mbarrier.expect_tx.relaxed.cta.shared.b64 [tx], 32;
    mbarrier.test_wait.parity.shared.b64 %p1, [tx], 0;
    mbarrier.test_wait.shared.b64 %p2, [tx], %t0;
    selp.u32 %r0, 1, 0, %p0;
    selp.u32 %r1, 1, 0, %p1;
    selp.u32 %r2, 1, 0, %p2;
    st.global.v4.u32 [%dst], {%r0, %r1, %r2, %r2};
  )");
  ASSERT_EQ(run.fault, "");
  EXPECT_EQ(run.out[0], 0u) << "arrivals done, 32 bytes completed but not expected: incomplete";
  EXPECT_EQ(run.out[1], 1u);
  EXPECT_EQ(run.out[2], 1u) << "the state token's phase completed";
}

TEST(PtxBulk, PendingCountReadsTheStateTokenBeforeTheArrival) {
  const BulkRun run = run_bulk(R"(
    mbarrier.init.shared.b64 [tx], 5;
    mbarrier.arrive.noComplete.shared.b64 %t0, [tx], 2;
    mbarrier.arrive.noComplete.shared.b64 %t1, [tx], 1;
    mbarrier.pending_count.b64 %r0, %t0;
    mbarrier.pending_count.b64 %r1, %t1;
    st.global.v2.u32 [%dst], {%r0, %r1};
  )");
  ASSERT_EQ(run.fault, "");
  EXPECT_EQ(run.out[0], 5u);
  EXPECT_EQ(run.out[1], 3u);
}

TEST(PtxBulk, SharedToGlobalGroupsLandAtWaitGroupAndReadAtWaitGroupRead) {
  const BulkRun run = run_bulk(R"(
    createpolicy.fractional.L2::evict_first.L2::evict_unchanged.b64 %t7, 0.5;
    fence.proxy.async.shared::cta;
    cp.async.bulk.global.shared::cta.bulk_group [%dst], [sm], 32;
    cp.async.bulk.commit_group;
    cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%dst+32], [sm+32], 32, %t7;
    cp.async.bulk.commit_group;
    ld.global.u32 %r0, [%dst];
    cp.async.bulk.wait_group 1;
    ld.global.u32 %r1, [%dst];
    ld.global.u32 %r2, [%dst+32];
    cp.async.bulk.wait_group.read 0;
    mov.u32 %r9, 0x33333333;
    st.shared.u32 [sm+32], %r9;
    ld.global.u32 %r3, [%dst+32];
    cp.async.bulk.wait_group 0;
    ld.global.u32 %r4, [%dst+32];
    st.global.v4.u32 [%dst+64], {%r0, %r1, %r2, %r3};
    st.global.u32 [%dst+80], %r4;
  )");
  ASSERT_EQ(run.fault, "");
  EXPECT_EQ(hex(run.out[16]), hex(0)) << "before any wait";
  EXPECT_EQ(hex(run.out[17]), hex(0x11111111)) << "the older group landed at wait_group 1";
  EXPECT_EQ(hex(run.out[18]), hex(0)) << "the newer one had not";
  EXPECT_EQ(hex(run.out[19]), hex(0)) << "wait_group.read only reads the source";
  EXPECT_EQ(hex(run.out[20]), hex(0x11111111))
      << "the bytes read at wait_group.read, not the later store";
}

TEST(PtxBulk, AnUnwaitedBulkStoreLandsWhenTheBlockEnds) {
  const BulkRun run = run_bulk(R"(
    cp.async.bulk.global.shared::cta.bulk_group [%dst], [sm], 64;
    cp.async.bulk.commit_group;
  )");
  ASSERT_EQ(run.fault, "");
  for (int w = 0; w < 16; ++w) EXPECT_EQ(hex(run.out[w]), hex(0x11111111)) << w;
}

TEST(PtxBulk, BulkReductionsCombineElementByElement) {
  const BulkRun run = run_bulk(R"(
    mov.u32 %r0, 5;
    mov.u32 %r1, 0xFFFFFFFF;
    st.global.v4.u32 [%dst], {%r0, %r1, %r0, %r0};
    st.global.v4.u32 [%dst+16], {%r0, %r1, %r0, %r0};
    cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%dst], [sm], 16;
    cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s32 [%dst+16], [sm+16], 16;
    cp.async.bulk.commit_group;
    cp.async.bulk.wait_group 0;
  )");
  ASSERT_EQ(run.fault, "");
  EXPECT_EQ(hex(run.out[0]), hex(0x11111116u));
  EXPECT_EQ(hex(run.out[1]), hex(0x11111110u)) << "wraps";
  EXPECT_EQ(hex(run.out[4]), hex(5u));
  EXPECT_EQ(hex(run.out[5]), hex(0xFFFFFFFFu)) << "-1 is the signed minimum";
}

TEST(PtxBulk, IssueChecksSizeAlignmentAndBounds) {
  const BulkRun size = run_bulk("cp.async.bulk.global.shared::cta.bulk_group [%dst], [sm], 24;");
  EXPECT_NE(size.fault.find("multiple of 16"), std::string::npos) << size.fault;
  const BulkRun aligned = run_bulk(
      "mbarrier.init.shared.b64 [tx], 1;\n "
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [sm], [%src+8], 16, "
      "[tx];");
  EXPECT_NE(aligned.fault.find("16-byte alignment"), std::string::npos) << aligned.fault;
  const BulkRun bounds = run_bulk(
      "mbarrier.init.shared.b64 [tx], 1;\n "
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [sm], [%src+240], 32, "
      "[tx];");
  EXPECT_NE(bounds.fault.find("out-of-bounds"), std::string::npos) << bounds.fault;
  const BulkRun tensor = run_bulk(
      "mbarrier.init.shared.b64 [tx], 1;\n "
      "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [sm], "
      "[%src, {%r0}], [tx];");
  EXPECT_EQ(tensor.kind, ptx::Fault::Kind::unsupported) << tensor.fault;
  EXPECT_NE(tensor.fault.find("CUtensorMap"), std::string::npos) << tensor.fault;
}

TEST(PtxBulk, CpAsyncTakesACachePolicyAfterItsSrcSize) {
  const BulkRun run = run_bulk(R"(
    createpolicy.fractional.L2::evict_last.b64 %t7, 1.0;
    cp.async.cg.shared.global.L2::cache_hint [sm], [%src], 16, 8, %t7;
    cp.async.ca.shared.global.L2::cache_hint [sm+16], [%src+16], 16, %t7;
    cp.async.commit_group;
    cp.async.wait_all;
    ld.shared.v4.u32 {%r0, %r1, %r2, %r3}, [sm];
    st.global.v4.u32 [%dst], {%r0, %r1, %r2, %r3};
    ld.shared.v4.u32 {%r0, %r1, %r2, %r3}, [sm+16];
    st.global.v4.u32 [%dst+16], {%r0, %r1, %r2, %r3};
    atom.global.add.L2::cache_hint.u32 %r4, [%dst+32], 3, %t7;
    red.global.add.L2::cache_hint.u32 [%dst+32], 4, %t7;
  )");
  ASSERT_EQ(run.fault, "");
  EXPECT_EQ(hex(run.out[0]), hex(src_word(0)));
  EXPECT_EQ(hex(run.out[1]), hex(src_word(1)));
  EXPECT_EQ(hex(run.out[2]), hex(0)) << "src-size 8 zero-fills";
  EXPECT_EQ(hex(run.out[3]), hex(0));
  for (int w = 4; w < 8; ++w) EXPECT_EQ(hex(run.out[w]), hex(src_word(w))) << w;
  EXPECT_EQ(run.out[8], 7u);
}

}  // namespace
}  // namespace pkb::ptx_test
