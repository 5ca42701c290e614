// Lane-wise instruction tests: one thread per case, each loading its operands a, b, c (.b64) and
// storing one .b64 result, so a table of cases runs in one launch. Shared by instruction_*_test.cpp.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/ptx/ptx_fixture.h"

namespace pkb::ptx_test {

/// One case: the operands, as .b64 bits (narrower views take the low bits).
struct Case {
  std::uint64_t a = 0, b = 0, c = 0;
};

/// Which register the body leaves its result in: %d (.b64), %d32 (.b32), %fd (.f32), %dd (.f64),
/// %d16 (.b16) or %p (.pred, stored as 0 / 1). The result is zero-extended into the stored word.
enum class Out { b64, b32, f32, f64, b16, pred };

struct CaseRun {
  std::vector<std::uint64_t> d;
  std::string fault, note;
};

/// Runs `body` once per case (one thread each, in blocks of up to 256). The body sees, per thread:
/// %a %b %c (.b64 operands), %a32 %b32 %c32 (.b32, low halves), %a16 %b16 %c16 (.b16, low
/// quarters), %fa %fb %fc (.f32 from the low halves), %da %db %dc (.f64), scratch %t %u (.b64),
/// %t32 %u32 (.b32), %t16 (.b16), %ft (.f32), %dt (.f64), %q (.pred), and must write the register
/// `out` names.
inline CaseRun run_cases(const std::string& body, const std::vector<Case>& cases, Out out) {
  static const char* const kEpilogue[] = {
      "", "cvt.u64.u32 %d, %d32;", "mov.b32 %d32, %fd; cvt.u64.u32 %d, %d32;", "mov.b64 %d, %dd;",
      "cvt.u64.u16 %d, %d16;", "selp.u64 %d, 1, 0, %p;"};
  const std::string module = R"(.version 9.0
.target sm_90a
.address_size 64
.visible .entry cases_kernel(.param .u64 a_ptr, .param .u64 b_ptr, .param .u64 c_ptr, .param .u64 d_ptr,
                            .param .u32 n)
{
  .reg .b64 %a, %b, %c, %d, %t, %u, %off, %pa, %pb, %pc, %pd;
  .reg .b32 %tid32, %a32, %b32, %c32, %d32, %t32, %u32;
  .reg .b16 %a16, %b16, %c16, %d16, %t16;
  .reg .f32 %fa, %fb, %fc, %fd, %ft;
  .reg .f64 %da, %db, %dc, %dd, %dt;
  .reg .pred %p, %q;
  mov.u32 %tid32, %ctaid.x;
  mov.u32 %t32, %ntid.x;
  mov.u32 %u32, %tid.x;
  mad.lo.u32 %tid32, %tid32, %t32, %u32;
  ld.param.u32 %t32, [n];
  setp.ge.u32 %p, %tid32, %t32;
  @%p ret;
  ld.param.u64 %pa, [a_ptr];
  ld.param.u64 %pb, [b_ptr];
  ld.param.u64 %pc, [c_ptr];
  ld.param.u64 %pd, [d_ptr];
  mul.wide.u32 %off, %tid32, 8;
  add.s64 %pa, %pa, %off;
  add.s64 %pb, %pb, %off;
  add.s64 %pc, %pc, %off;
  add.s64 %pd, %pd, %off;
  ld.global.u64 %a, [%pa];
  ld.global.u64 %b, [%pb];
  ld.global.u64 %c, [%pc];
  cvt.u32.u64 %a32, %a;
  cvt.u32.u64 %b32, %b;
  cvt.u32.u64 %c32, %c;
  cvt.u16.u64 %a16, %a;
  cvt.u16.u64 %b16, %b;
  cvt.u16.u64 %c16, %c;
  mov.b32 %fa, %a32;
  mov.b32 %fb, %b32;
  mov.b32 %fc, %c32;
  mov.b64 %da, %a;
  mov.b64 %db, %b;
  mov.b64 %dc, %c;
  mov.b64 %d, 0;
  {
)" + body + "\n  }\n  " +
                             kEpilogue[static_cast<int>(out)] + R"(
  st.global.u64 [%pd], %d;
  ret;
}
)";
  PtxFixture fixture;
  fixture.load(module);
  const std::size_t n = cases.size();
  std::uint64_t ptr[4];
  for (int k = 0; k < 4; ++k) ptr[k] = fixture.alloc(0, n * 8, std::string("operand ") + "abcd"[k]);
  std::vector<std::uint64_t> a(n), b(n), c(n);
  for (std::size_t i = 0; i < n; ++i) a[i] = cases[i].a, b[i] = cases[i].b, c[i] = cases[i].c;
  fixture.write(ptr[0], a);
  fixture.write(ptr[1], b);
  fixture.write(ptr[2], c);
  CaseRun run;
  const auto count = static_cast<std::uint32_t>(n), block = std::min<std::uint32_t>(count, 256);
  run.fault = fixture.run("cases_kernel", {(count + block - 1) / block, 1, 1}, {block, 1, 1}, [&](int) {
    return std::vector<std::string>{u64_param(ptr[0]), u64_param(ptr[1]), u64_param(ptr[2]), u64_param(ptr[3]),
                                    u32_param(count)};
  });
  run.d = fixture.read<std::uint64_t>(ptr[3], n);
  run.note = fixture.machine().undefined_note();
  return run;
}

/// A module's text with the header NVRTC writes for sm_90a.
inline std::string ptx_module(const std::string& text) {
  return ".version 9.0\n.target sm_90a\n.address_size 64\n" + text;
}

inline std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

/// A case with the result the ISA defines for it.
struct Check {
  std::uint64_t a = 0, b = 0, c = 0, want = 0;
};

/// Runs the checks and expects each result's exact bits.
inline void expect_cases(const std::string& body, Out out, const std::vector<Check>& checks) {
  std::vector<Case> cases;
  for (const Check& check : checks) cases.push_back({check.a, check.b, check.c});
  const CaseRun run = run_cases(body, cases, out);
  ASSERT_EQ(run.fault, "") << body;
  for (std::size_t i = 0; i < checks.size(); ++i)
    EXPECT_EQ(hex(run.d[i]), hex(checks[i].want))
        << body << "\n  a=" << hex(checks[i].a) << " b=" << hex(checks[i].b) << " c=" << hex(checks[i].c);
}

/// Every case through a reference function of (a, b, c) that implements the ISA's definition.
template <class Ref>
void expect_reference(const std::string& body, Out out, const std::vector<Case>& cases, Ref ref) {
  std::vector<Check> checks;
  for (const Case& k : cases) checks.push_back({k.a, k.b, k.c, ref(k.a, k.b, k.c)});
  expect_cases(body, out, checks);
}

/// Every (a, b) pair of `values` (c = 0).
inline std::vector<Case> pairs(const std::vector<std::uint64_t>& values) {
  std::vector<Case> cases;
  for (std::uint64_t a : values)
    for (std::uint64_t b : values) cases.push_back({a, b, 0});
  return cases;
}

/// Runs a module of functions plus a one-warp kernel whose body ends by storing %out per lane
/// (%out, %r0-7 and %p0-3 declared); `fault` gets the run's fault, empty when none.
inline std::vector<std::uint64_t> run_module(const std::string& functions, const std::string& body, std::string& fault, std::uint32_t dynamic_shared = 0) {
  PtxFixture fixture;
  fixture.load(ptx_module(functions + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b64 %outp, %out, %o;
  .reg .b32 %tid32, %r<8>;
  .reg .pred %p<4>;
  ld.param.u64 %outp, [out];
  mov.u32 %tid32, %tid.x;
  mul.wide.u32 %o, %tid32, 8;
  add.s64 %outp, %outp, %o;
  mov.b64 %out, 0;
  {
)" + body + R"(
  }
  st.global.u64 [%outp], %out;
  ret;
}
)"));
  const std::uint64_t out = fixture.alloc(0, 256, "out");
  fault = fixture.run("k", {1, 1, 1}, {32, 1, 1}, [&](int) { return std::vector<std::string>{u64_param(out)}; }, dynamic_shared);
  return fixture.read<std::uint64_t>(out, 32);
}

}  // namespace pkb::ptx_test
