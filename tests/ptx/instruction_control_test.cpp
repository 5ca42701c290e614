// Control flow and the instructions that only steer execution: call / ret with parameters and
// recursion under divergence, brx.idx branch tables, predicated execution, exit and trap, and the
// hint and no-op instructions NVRTC emits (nanosleep, griddepcontrol, createpolicy, fences).
#include "tests/ptx/instruction_cases.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

std::vector<u64> lanes() {
  std::vector<u64> in;
  for (u64 i = 0; i < 32; ++i) in.push_back(i);
  return in;
}


TEST(PtxControl, CallPassesScalarAndAggregateParamsAndReturnsValues) {
  std::string fault;
  const auto out = run_module(R"(
.func (.param .b32 result) add3(.param .b32 x, .param .b64 y, .param .align 8 .b8 pair[16])
{
  .reg .b32 %a, %b, %c;
  .reg .b64 %y, %p0, %p1;
  ld.param.b32 %a, [x];
  ld.param.b64 %y, [y];
  ld.param.v2.b64 {%p0, %p1}, [pair];
  cvt.u32.u64 %b, %y;
  add.s32 %a, %a, %b;
  sub.s64 %p1, %p1, %p0;
  cvt.u32.u64 %c, %p1;
  add.s32 %a, %a, %c;
  st.param.b32 [result], %a;
  ret;
}
)", R"(
    .reg .b64 %wide, %q0, %q1;
    cvt.u64.u32 %wide, %tid32;
    shl.b64 %wide, %wide, 8;
    mov.u64 %q0, 5;
    add.u64 %q1, %wide, 1000;
    {
      .param .b32 param0;
      st.param.b32 [param0], %tid32;
      .param .b64 param1;
      st.param.b64 [param1], %wide;
      .param .align 8 .b8 param2[16];
      st.param.v2.b64 [param2], {%q0, %q1};
      .param .b32 retval0;
      call.uni (retval0), add3, (param0, param1, param2);
      ld.param.b32 %r0, [retval0];
    }
    cvt.u64.u32 %out, %r0;
  )", fault);
  ASSERT_EQ(fault, "");
  for (u64 t = 0; t < 32; ++t) EXPECT_EQ(out[t], t + (t << 8) + (t << 8) + 995) << t;
}

TEST(PtxControl, RecursiveCallsFromDivergentLanes) {
  // fact(n) by recursion, n = lane % 11, each lane at its own depth.
  std::string fault;
  const auto out = run_module(R"(
.func (.param .b64 r) fact(.param .b32 n)
{
  .reg .b32 %n, %m;
  .reg .b64 %v, %w;
  .reg .pred %base;
  ld.param.b32 %n, [n];
  setp.le.u32 %base, %n, 1;
  @%base bra BASE;
  sub.u32 %m, %n, 1;
  {
    .param .b32 p;
    st.param.b32 [p], %m;
    .param .b64 rv;
    call (rv), fact, (p);
    ld.param.b64 %w, [rv];
  }
  cvt.u64.u32 %v, %n;
  mul.lo.u64 %v, %v, %w;
  st.param.b64 [r], %v;
  ret;
BASE:
  mov.u64 %v, 1;
  st.param.b64 [r], %v;
  ret;
}
)", R"(
    rem.u32 %r0, %tid32, 11;
    {
      .param .b32 p;
      st.param.b32 [p], %r0;
      .param .b64 rv;
      call (rv), fact, (p);
      ld.param.b64 %out, [rv];
    }
  )", fault);
  ASSERT_EQ(fault, "");
  for (u64 t = 0; t < 32; ++t) {
    u64 f = 1;
    for (u64 i = 2; i <= t % 11; ++i) f *= i;
    EXPECT_EQ(out[t], f) << t;
  }
}

TEST(PtxControl, BrxIdxJumpsThroughABranchTable) {
  const BodyRun run = run_body(R"(
    .reg .b32 %k;
    rem.u32 %k, %tid32, 3;
  TABLE: .branchtargets CASE0, CASE1, CASE2;
    brx.idx %k, TABLE;
  CASE0:
    mov.u64 %out, 100;
    bra.uni END;
  CASE1:
    mov.u64 %out, 200;
    bra.uni END;
  CASE2:
    mov.u64 %out, 300;
  END:
  )", lanes());
  ASSERT_EQ(run.fault, "");
  for (u64 t = 0; t < 32; ++t) EXPECT_EQ(run.out[t], 100 * (t % 3 + 1)) << t;
}

TEST(PtxControl, PredicatedExecutionDivergentLoopsAndReconvergence) {
  // Lane t loops t times (adding t each time), then the converged warp sums with a full-mask
  // shuffle tree.
  const BodyRun run = run_body(R"(
    .reg .b32 %i, %acc, %other;
    .reg .pred %more, %odd;
    mov.u32 %i, 0;
    mov.u32 %acc, 0;
  LOOP:
    setp.lt.u32 %more, %i, %tid32;
    @!%more bra DONE;
    add.u32 %acc, %acc, %tid32;
    add.u32 %i, %i, 1;
    bra LOOP;
  DONE:
    and.b32 %i, %tid32, 1;
    setp.ne.u32 %odd, %i, 0;
    @%odd add.u32 %acc, %acc, 1000000;
    @!%odd sub.u32 %acc, %acc, 0;
    shfl.sync.bfly.b32 %other, %acc, 16, 31, -1;
    add.u32 %acc, %acc, %other;
    shfl.sync.bfly.b32 %other, %acc, 8, 31, -1;
    add.u32 %acc, %acc, %other;
    shfl.sync.bfly.b32 %other, %acc, 4, 31, -1;
    add.u32 %acc, %acc, %other;
    shfl.sync.bfly.b32 %other, %acc, 2, 31, -1;
    add.u32 %acc, %acc, %other;
    shfl.sync.bfly.b32 %other, %acc, 1, 31, -1;
    add.u32 %acc, %acc, %other;
    cvt.u64.u32 %out, %acc;
  )", lanes());
  ASSERT_EQ(run.fault, "");
  u64 total = 16 * 1000000;
  for (u64 t = 0; t < 32; ++t) total += t * t;
  for (u64 t = 0; t < 32; ++t) EXPECT_EQ(run.out[t], total) << t;
}

TEST(PtxControl, ExitEndsTheThreadAndTrapFaults) {
  const BodyRun exited = run_body(".reg .pred %p;\n setp.lt.u32 %p, %tid32, 8;\n @%p exit;\n mov.u64 %out, 7;", lanes());
  ASSERT_EQ(exited.fault, "");
  for (u64 t = 0; t < 32; ++t) EXPECT_EQ(exited.out[t], t < 8 ? 0 : 7) << t;
  const BodyRun trapped = run_body(".reg .pred %p;\n setp.eq.u32 %p, %tid32, 5;\n @%p trap;\n mov.u64 %out, 7;", lanes());
  EXPECT_NE(trapped.fault, "");
  EXPECT_NE(trapped.fault.find("trap"), std::string::npos) << trapped.fault;
}

TEST(PtxControl, HintAndNoOpInstructionsExecute) {
  const BodyRun run = run_body(R"(
    .reg .b32 %v;
    nanosleep.u32 100;
    griddepcontrol.wait;
    griddepcontrol.launch_dependents;
    ld.global.u32 %v, [%inptr];
    prefetch.global.L2 [%inptr];
    prefetch.global.L2::evict_last [%inptr];
    fence.proxy.async.shared::cta;
    membar.gl;
    membar.sys;
    fence.acq_rel.sys;
    st.global.u32 [%outptr+4], %v;
    ld.global.u32 %v, [%outptr+4];
    cvt.u64.u32 %out, %v;
  )", lanes());
  ASSERT_EQ(run.fault, "");
  for (u64 t = 0; t < 32; ++t) EXPECT_EQ(run.out[t], t) << t;
}

TEST(PtxControl, CachePolicyOperandsOnLoadsAndStores) {
  // createpolicy makes an L2 eviction policy; loads and stores with .L2::cache_hint take it as a
  // hint only.
  const BodyRun run = run_body(R"(
    .reg .b64 %policy;
    .reg .b32 %v;
    createpolicy.fractional.L2::evict_last.b64 %policy, 1.0;
    ld.global.L2::cache_hint.u32 %v, [%inptr], %policy;
    st.global.L2::cache_hint.u32 [%outptr+4], %v, %policy;
    ld.global.u32 %v, [%outptr+4];
    cvt.u64.u32 %out, %v;
  )", lanes());
  ASSERT_EQ(run.fault, "");
  for (u64 t = 0; t < 32; ++t) EXPECT_EQ(run.out[t], t) << t;
}

TEST(PtxControl, DynamicSharedMemoryHasTheLaunchSize) {
  std::string fault;
  const auto out = run_module(".extern .shared .align 16 .b8 dyn[];\n", R"(
    mov.u32 %r0, dyn;
    mad.lo.u32 %r1, %tid32, 8, %r0;
    cvt.u64.u32 %o, %tid32;
    st.shared.u64 [%r1], %o;
    bar.sync 0;
    xor.b32 %r2, %tid32, 31;
    mad.lo.u32 %r3, %r2, 8, %r0;
    ld.shared.u64 %out, [%r3];
    mov.u32 %r4, %dynamic_smem_size;
    cvt.u64.u32 %o, %r4;
    shl.b64 %o, %o, 32;
    or.b64 %out, %out, %o;
  )", fault, 256);
  ASSERT_EQ(fault, "");
  for (u64 t = 0; t < 32; ++t) EXPECT_EQ(hex(out[t]), hex((t ^ 31) | 256ull << 32)) << t;
  const auto beyond = run_module(".extern .shared .align 16 .b8 dyn[];\n", "mov.u32 %r0, dyn;\n ld.shared.u32 %r1, [%r0+256];", fault, 256);
  EXPECT_NE(fault.find("out-of-bounds"), std::string::npos) << fault;
}

}  // namespace
}  // namespace pkb::ptx_test
