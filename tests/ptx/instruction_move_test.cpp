// mov with immediates in every literal form, vector pack/unpack (element 0 is the low bits), and the
// special registers of a 3-D block in a 2-D grid (%tid %ntid %ctaid %nctaid %laneid %lanemask_*).
#include "tests/ptx/instruction_cases.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

TEST(PtxMove, ImmediatesInEveryLiteralForm) {
  expect_cases("mov.u32 %d32, 0xFFFFFFFF;", Out::b32, {{0, 0, 0, 0xFFFFFFFF}});
  expect_cases("mov.s32 %d32, -1;", Out::b32, {{0, 0, 0, 0xFFFFFFFF}});
  expect_cases("mov.u32 %d32, 0b1010;", Out::b32, {{0, 0, 0, 10}});
  expect_cases("mov.u32 %d32, 017;", Out::b32, {{0, 0, 0, 15}});
  expect_cases("mov.u32 %d32, 42U;", Out::b32, {{0, 0, 0, 42}});
  expect_cases("mov.b64 %d, 0x8000000000000000;", Out::b64, {{0, 0, 0, 0x8000000000000000}});
  expect_cases("mov.s64 %d, -2;", Out::b64, {{0, 0, 0, 0xFFFFFFFFFFFFFFFE}});
  expect_cases("mov.u16 %d16, 0xBEEF;", Out::b16, {{0, 0, 0, 0xBEEF}});
  expect_cases("mov.f32 %fd, 0f3FC00000;", Out::f32, {{0, 0, 0, 0x3FC00000}});
  expect_cases("mov.f64 %dd, 0d4000000000000000;", Out::f64, {{0, 0, 0, 0x4000000000000000}});
  // An f64 literal in an f32 instruction is rounded to f32; a register source is copied.
  expect_cases("mov.f32 %fd, 0d3FF8000000000000;", Out::f32, {{0, 0, 0, 0x3FC00000}});
  expect_cases("add.f32 %fd, %fa, 0f3F800000;", Out::f32, {{0x40000000, 0, 0, 0x40400000}});
  expect_cases("mul.f64 %dd, %da, 0d4008000000000000;", Out::f64, {{f64_bits(2.0), 0, 0, f64_bits(6.0)}});
  expect_cases("add.s32 %d32, %a32, -5;", Out::b32, {{3, 0, 0, 0xFFFFFFFE}});
  expect_cases("mov.b32 %d32, %a32;", Out::b32, {{0x123456789, 0, 0, 0x23456789}});
  expect_cases("mov.pred %p, 1;", Out::pred, {{0, 0, 0, 1}});
}

TEST(PtxMove, WarpSizeConstantIs32) {
  // WARP_SZ is a predefined constant of the PTX language.
  expect_cases("mov.u32 %d32, WARP_SZ;", Out::b32, {{0, 0, 0, 32}});
}

TEST(PtxMove, VectorPackAndUnpackPutElementZeroLow) {
  // mov.b32 {lo, hi}, a unpacks; mov.b64 {x, y} packs x into bits 31:0.
  expect_cases(R"(
    .reg .b16 %lo, %hi;
    mov.b32 {%lo, %hi}, %a32;
    mov.b32 %d32, {%hi, %lo};
  )", Out::b32, {{0x11223344, 0, 0, 0x33441122}});
  expect_cases("mov.b64 %d, {%a32, %b32};", Out::b64, {{0xAAAA0001, 0xBBBB0002, 0, 0xBBBB0002AAAA0001}});
  expect_cases(R"(
    .reg .b32 %lo, %hi;
    mov.b64 {%lo, %hi}, %a;
    sub.u32 %d32, %hi, %lo;
  )", Out::b32, {{0x0000000700000002, 0, 0, 5}});
  expect_cases(R"(
    .reg .b16 %h<4>;
    mov.b64 {%h0, %h1, %h2, %h3}, %a;
    mov.b64 %d, {%h3, %h2, %h1, %h0};
  )", Out::b64, {{0x1111222233334444, 0, 0, 0x4444333322221111}});
  // The sink takes an unused element.
  expect_cases(R"(
    .reg .b32 %hi;
    mov.b64 {_, %hi}, %a;
    mov.b32 %d32, %hi;
  )", Out::b32, {{0x1234567800000000, 0, 0, 0x12345678}});
}

TEST(PtxMove, SpecialRegistersOfA3DBlockIn2DGrid) {
  PtxFixture fixture;
  fixture.load(ptx_module(R"(
.visible .entry specials(.param .u64 out)
{
  .reg .b32 %r<20>;
  .reg .b64 %p, %o;
  ld.param.u64 %p, [out];
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, %tid.y;
  mov.u32 %r2, %tid.z;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %ntid.y;
  mov.u32 %r5, %ntid.z;
  mov.u32 %r6, %ctaid.x;
  mov.u32 %r7, %ctaid.y;
  mov.u32 %r8, %nctaid.x;
  mov.u32 %r9, %nctaid.y;
  mov.u32 %r10, %laneid;
  mov.u32 %r11, %lanemask_lt;
  mov.u32 %r12, %lanemask_le;
  mov.u32 %r13, %lanemask_eq;
  mov.u32 %r14, %lanemask_gt;
  mov.u32 %r15, %lanemask_ge;
  mov.u32 %r16, 32;
  // the record index: block (ctaid.y * nctaid.x + ctaid.x), thread (z * ny + y) * nx + x
  mad.lo.u32 %r17, %r7, %r8, %r6;
  mad.lo.u32 %r18, %r2, %r4, %r1;
  mad.lo.u32 %r18, %r18, %r3, %r0;
  mul.lo.u32 %r19, %r3, %r4;
  mul.lo.u32 %r19, %r19, %r5;
  mad.lo.u32 %r17, %r17, %r19, %r18;
  mul.wide.u32 %o, %r17, 80;
  add.s64 %p, %p, %o;
  st.global.v4.u32 [%p], {%r0, %r1, %r2, %r3};
  st.global.v4.u32 [%p+16], {%r4, %r5, %r6, %r7};
  st.global.v4.u32 [%p+32], {%r8, %r9, %r10, %r11};
  st.global.v4.u32 [%p+48], {%r12, %r13, %r14, %r15};
  st.global.u32 [%p+64], %r16;
  ret;
}
)"));
  const unsigned nx = 8, ny = 4, nz = 3, gx = 3, gy = 2, threads = nx * ny * nz;
  const std::uint64_t out = fixture.alloc(0, 80 * threads * gx * gy);
  ASSERT_EQ(fixture.run("specials", {gx, gy, 1}, {nx, ny, nz}, [&](int) { return std::vector<std::string>{u64_param(out)}; }), "");
  const auto words = fixture.read<std::uint32_t>(out, 20 * threads * gx * gy);
  for (unsigned by = 0; by < gy; ++by)
    for (unsigned bx = 0; bx < gx; ++bx)
      for (unsigned z = 0; z < nz; ++z)
        for (unsigned y = 0; y < ny; ++y)
          for (unsigned x = 0; x < nx; ++x) {
            const unsigned linear = (z * ny + y) * nx + x, lane = linear % 32;
            const std::uint32_t* r = &words[20 * ((by * gx + bx) * threads + linear)];
            const std::uint32_t lt = (1u << lane) - 1, le = lane == 31 ? ~0u : (2u << lane) - 1;
            const std::vector<std::uint32_t> want = {x, y, z, nx, ny, nz, bx, by, gx, gy, lane, lt, le, 1u << lane, ~le, ~lt, 32};
            for (int k = 0; k < 17; ++k)
              EXPECT_EQ(r[k], want[k]) << "field " << k << " of thread (" << x << "," << y << "," << z << ") block (" << bx << "," << by << ")";
          }
}

}  // namespace
}  // namespace pkb::ptx_test
