// Calls and branches beyond the golden cases: recursion whose frames keep their own locals
// (reached through generic addresses), mutual recursion, runaway recursion as a stack overflow;
// brx.idx with a label range, a guard and an index past its table; createpolicy's forms.
#include "tests/ptx/instruction_cases.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

// sum(n) = n + sum(n - 1), keeping n in a .local buffer (through a generic address) across the
// recursive call: every frame has its own.
const char* const kRecursiveSum = R"(
.func (.param .b64 r) sum(.param .b32 n)
{
  .local .align 8 .b8 keep[8];
  .reg .b32 %n, %m;
  .reg .b64 %v, %w, %a;
  .reg .pred %base;
  ld.param.b32 %n, [n];
  mov.u64 %a, keep;
  cvta.local.u64 %a, %a;
  cvt.u64.u32 %v, %n;
  st.u64 [%a], %v;
  setp.eq.u32 %base, %n, 0;
  @%base bra BASE;
  sub.u32 %m, %n, 1;
  {
    .param .b32 p;
    st.param.b32 [p], %m;
    .param .b64 rv;
    call (rv), sum, (p);
    ld.param.b64 %w, [rv];
  }
  ld.u64 %v, [%a];
  add.u64 %v, %v, %w;
  st.param.b64 [r], %v;
  ret;
BASE:
  mov.u64 %v, 0;
  st.param.b64 [r], %v;
  ret;
}
)";

TEST(PtxCallBranch, RecursiveFramesKeepTheirOwnLocals) {
  std::string fault;
  const auto out = run_module(kRecursiveSum, R"(
    mul.lo.u32 %r0, %tid32, 3;
    {
      .param .b32 p;
      st.param.b32 [p], %r0;
      .param .b64 rv;
      call (rv), sum, (p);
      ld.param.b64 %out, [rv];
    }
  )",
                                 fault);
  ASSERT_EQ(fault, "");
  for (u64 t = 0; t < 32; ++t) EXPECT_EQ(out[t], 3 * t * (3 * t + 1) / 2) << t;
}

TEST(PtxCallBranch, MutualRecursionGetsFreshFramesForBothFunctions) {
  // odd(n) = n == 0 ? 0 : even(n - 1); even(n) = n == 0 ? 1 : odd(n - 1) + 0 * n (n kept live).
  const std::string functions = R"(
.func (.param .b32 r) even(.param .b32 n);
.func (.param .b32 r) odd(.param .b32 n)
{
  .reg .b32 %n, %m, %v;
  .reg .pred %zero;
  ld.param.b32 %n, [n];
  mov.u32 %v, 0;
  setp.eq.u32 %zero, %n, 0;
  @%zero bra DONE;
  sub.u32 %m, %n, 1;
  {
    .param .b32 p;
    st.param.b32 [p], %m;
    .param .b32 rv;
    call (rv), even, (p);
    ld.param.b32 %v, [rv];
  }
  sub.u32 %m, %n, %m;
  mul.lo.u32 %v, %v, %m;
DONE:
  st.param.b32 [r], %v;
  ret;
}
.func (.param .b32 r) even(.param .b32 n)
{
  .reg .b32 %n, %m, %v;
  .reg .pred %zero;
  ld.param.b32 %n, [n];
  mov.u32 %v, 1;
  setp.eq.u32 %zero, %n, 0;
  @%zero bra DONE;
  sub.u32 %m, %n, 1;
  {
    .param .b32 p;
    st.param.b32 [p], %m;
    .param .b32 rv;
    call (rv), odd, (p);
    ld.param.b32 %v, [rv];
  }
  sub.u32 %m, %n, %m;
  mul.lo.u32 %v, %v, %m;
DONE:
  st.param.b32 [r], %v;
  ret;
}
)";
  std::string fault;
  const auto out = run_module(functions, R"(
    {
      .param .b32 p;
      st.param.b32 [p], %tid32;
      .param .b32 rv;
      call (rv), even, (p);
      ld.param.b32 %r1, [rv];
    }
    cvt.u64.u32 %out, %r1;
  )",
                                 fault);
  ASSERT_EQ(fault, "");
  for (u64 t = 0; t < 32; ++t) EXPECT_EQ(out[t], t % 2 == 0 ? 1u : 0u) << t;
}

TEST(PtxCallBranch, RunawayRecursionIsAStackOverflow) {
  std::string fault;
  run_module(kRecursiveSum, R"(
    mov.u32 %r0, 100000;
    {
      .param .b32 p;
      st.param.b32 [p], %r0;
      .param .b64 rv;
      call (rv), sum, (p);
      ld.param.b64 %out, [rv];
    }
  )",
                fault);
  EXPECT_NE(fault.find("stack overflow"), std::string::npos) << fault;
}

TEST(PtxCallBranch, BrxIdxTakesLabelRangesGuardsAndFaultsPastItsTable) {
  const std::string table = R"(
    .reg .b32 %k;
    .reg .pred %go;
    rem.u32 %k, %tid32, 3;
    setp.ne.u32 %go, %tid32, 31;
    mov.u64 %out, 7;
  TS: .branchtargets N<3>;
    @%go brx.idx %k, TS;
    bra.uni END;
  N2:
    add.u64 %out, %out, 1;
  N1:
    add.u64 %out, %out, 10;
  N0:
    add.u64 %out, %out, 100;
  END:
  )";
  std::vector<u64> in(32);
  const BodyRun run = run_body(table, in);
  ASSERT_EQ(run.fault, "");
  for (u64 t = 0; t < 31; ++t)
    EXPECT_EQ(run.out[t], 7 + (t % 3 == 2 ? 111 : t % 3 == 1 ? 110 : 100)) << t;
  EXPECT_EQ(run.out[31], 7u) << "its guard is false";
  const BodyRun bad = run_body(
      ".reg .b32 %k;\n add.u32 %k, %tid32, 0;\n T: .branchtargets A, B;\n brx.idx %k, T;\n A:\n "
      "B:\n",
      in);
  EXPECT_NE(bad.fault.find("past the end of its branch table of 2"), std::string::npos)
      << bad.fault;
}

TEST(PtxCallBranch, CreatePolicyForms) {
  std::vector<u64> in(32);
  const BodyRun run = run_body(R"(
    .reg .b64 %a, %b, %c;
    .reg .pred %p;
    createpolicy.range.L2::evict_last.L2::evict_first.b64 %a, [%inptr], 256, 512;
    createpolicy.fractional.L2::evict_normal.b64 %b;
    createpolicy.cvt.L2.b64 %c, %b;
    ld.global.L2::cache_hint.u64 %out, [%inptr], %a;
    st.global.L2::cache_hint.u64 [%outptr], %c, %b;
    ld.global.u64 %a, [%outptr];
    setp.eq.u64 %p, %a, %b;
    selp.u64 %out, 1, 0, %p;
  )",
                               in);
  ASSERT_EQ(run.fault, "");
  for (u64 t = 0; t < 32; ++t) EXPECT_EQ(run.out[t], 1u) << t;
}

}  // namespace
}  // namespace pkb::ptx_test
