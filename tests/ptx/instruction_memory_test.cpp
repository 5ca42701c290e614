// ld / st of every width and vector form on global, shared, local and param memory, generic
// addresses through cvta and isspacep, module variables, and the faults for bad addresses.
#include "tests/ptx/instruction_cases.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

struct MemRun {
  std::string fault;
  std::vector<std::uint8_t> buf;  // the global buffer afterwards
  std::vector<u64> res;           // the 32 result slots
};

// One thread runs `body` with %buf (a 256-byte global buffer holding `bytes`) and %res (32 zeroed
// .b64 result slots), scratch registers %t0-7 %r0-15 %h0-7 %f0-7 %fd0-3 %p0-3, and the kernel
// parameter blob (16 bytes 0x10 ... 0x1f). `module_scope` goes before the kernel.
MemRun run_memory(const std::string& body, const std::vector<std::uint8_t>& bytes, const std::string& module_scope = "") {
  PtxFixture fixture;
  fixture.load(ptx_module(module_scope + R"(
.visible .entry mem(.param .u64 buf, .param .u64 res, .param .align 8 .b8 blob[16])
{
  .reg .b64 %buf, %res, %t<8>;
  .reg .b32 %r<16>;
  .reg .b16 %h<8>;
  .reg .f32 %f<8>;
  .reg .f64 %fd<4>;
  .reg .pred %p<4>;
  ld.param.u64 %buf, [buf];
  ld.param.u64 %res, [res];
  {
)" + body + R"(
  }
  ret;
}
)"));
  const u64 buf = fixture.alloc(0, 256, "buf"), res = fixture.alloc(0, 256, "res");
  std::vector<std::uint8_t> init = bytes;
  init.resize(256, 0);
  fixture.write(buf, init);
  std::string blob;
  for (int i = 0; i < 16; ++i) blob += static_cast<char>(0x10 + i);
  MemRun run;
  run.fault = fixture.run("mem", {1, 1, 1}, {1, 1, 1}, [&](int) { return std::vector<std::string>{u64_param(buf), u64_param(res), blob}; });
  run.buf = fixture.read<std::uint8_t>(buf, 256);
  run.res = fixture.read<u64>(res, 32);
  return run;
}

std::vector<std::uint8_t> pattern() {
  std::vector<std::uint8_t> bytes(256);
  for (int i = 0; i < 256; ++i) bytes[i] = static_cast<std::uint8_t>(i * 0x1D + 0x83);
  return bytes;
}

// Little-endian bytes [at, at + n) of `bytes`.
u64 le(const std::vector<std::uint8_t>& bytes, int at, int n) {
  u64 v = 0;
  for (int i = n - 1; i >= 0; --i) v = v << 8 | bytes[at + i];
  return v;
}
u64 sext(u64 v, int bits) { return (v & (1ull << (bits - 1))) ? v | ~((1ull << bits) - 1) : v; }

TEST(PtxMemory, GlobalLoadsOfEveryWidthZeroOrSignExtend) {
  const auto bytes = pattern();
  const MemRun run = run_memory(R"(
    ld.global.u8 %r0, [%buf+1];       cvt.u64.u32 %t0, %r0;  st.global.u64 [%res], %t0;
    ld.global.s8 %r0, [%buf+1];       cvt.u64.u32 %t0, %r0;  st.global.u64 [%res+8], %t0;
    ld.global.u16 %r0, [%buf+2];      cvt.u64.u32 %t0, %r0;  st.global.u64 [%res+16], %t0;
    ld.global.s16 %r0, [%buf+2];      cvt.u64.u32 %t0, %r0;  st.global.u64 [%res+24], %t0;
    ld.global.u32 %r0, [%buf+4];      cvt.u64.u32 %t0, %r0;  st.global.u64 [%res+32], %t0;
    ld.global.u64 %t0, [%buf+8];      st.global.u64 [%res+40], %t0;
    ld.global.s32 %t0, [%buf+12];     st.global.u64 [%res+48], %t0;
    ld.global.v2.u32 {%r0, %r1}, [%buf+16];
    mov.b64 %t0, {%r1, %r0};          st.global.u64 [%res+56], %t0;
    ld.global.v4.u32 {%r0, %r1, %r2, %r3}, [%buf+32];
    mov.b64 %t0, {%r0, %r3};          st.global.u64 [%res+64], %t0;
    ld.global.v2.u64 {%t0, %t1}, [%buf+48];
    st.global.u64 [%res+72], %t1;
    ld.global.v4.u16 {%h0, %h1, %h2, %h3}, [%buf+64];
    mov.b64 %t0, {%h3, %h2, %h1, %h0}; st.global.u64 [%res+80], %t0;
    ld.global.v4.u8 {%h0, %h1, %h2, %h3}, [%buf+68];
    cvt.u64.u16 %t0, %h2;             st.global.u64 [%res+88], %t0;
    ld.global.f32 %f0, [%buf+72];     mov.b32 %r0, %f0; cvt.u64.u32 %t0, %r0; st.global.u64 [%res+96], %t0;
    ld.global.f64 %fd0, [%buf+80];    mov.b64 %t0, %fd0;     st.global.u64 [%res+104], %t0;
    ld.global.v4.f32 {%f0, %f1, %f2, %f3}, [%buf+96];
    mov.b32 %r0, %f3; cvt.u64.u32 %t0, %r0; st.global.u64 [%res+112], %t0;
    ld.global.v2.f64 {%fd0, %fd1}, [%buf+112];
    mov.b64 %t0, %fd1;                st.global.u64 [%res+120], %t0;
    ld.global.s8 %h0, [%buf+5];       cvt.u64.u16 %t0, %h0;  st.global.u64 [%res+128], %t0;
  )", bytes);
  ASSERT_EQ(run.fault, "");
  const std::vector<u64> want = {
      le(bytes, 1, 1),
      sext(le(bytes, 1, 1), 8) & 0xFFFFFFFF,
      le(bytes, 2, 2),
      sext(le(bytes, 2, 2), 16) & 0xFFFFFFFF,
      le(bytes, 4, 4),
      le(bytes, 8, 8),
      sext(le(bytes, 12, 4), 32),
      le(bytes, 20, 4) | le(bytes, 16, 4) << 32,
      le(bytes, 32, 4) | le(bytes, 44, 4) << 32,
      le(bytes, 56, 8),
      le(bytes, 70, 2) | le(bytes, 68, 2) << 16 | le(bytes, 66, 2) << 32 | le(bytes, 64, 2) << 48,
      le(bytes, 70, 1),
      le(bytes, 72, 4),
      le(bytes, 80, 8),
      le(bytes, 108, 4),
      le(bytes, 120, 8),
      sext(le(bytes, 5, 1), 8) & 0xFFFF,
  };
  for (std::size_t k = 0; k < want.size(); ++k) EXPECT_EQ(hex(run.res[k]), hex(want[k])) << "result slot " << k;
}

TEST(PtxMemory, GlobalStoresWriteExactlyTheirBytes) {
  const MemRun run = run_memory(R"(
    mov.u32 %r0, 0x11223344;
    mov.u64 %t0, 0x8877665544332211;
    mov.u16 %h0, 0xA1B2;
    st.global.u8 [%buf+1], %r0;
    st.global.u16 [%buf+2], %h0;
    st.global.u32 [%buf+4], %r0;
    st.global.u64 [%buf+8], %t0;
    mov.u32 %r1, 0xCAFEF00D;
    st.global.v2.u32 [%buf+16], {%r0, %r1};
    st.global.v4.u32 [%buf+32], {%r1, %r0, %r1, %r0};
    st.global.v2.u16 [%buf+52], {%h0, %h0};
    mov.f32 %f0, 0f3F800000;
    st.global.v4.f32 [%buf+64], {%f0, %f0, %f0, %f0};
    st.global.v4.u8 [%buf+84], {%h0, %h0, %h0, %h0};
  )", std::vector<std::uint8_t>(256, 0xEE));
  ASSERT_EQ(run.fault, "");
  std::vector<std::uint8_t> want(256, 0xEE);
  auto put = [&](int at, u64 v, int n) {
    for (int i = 0; i < n; ++i) want[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
  };
  put(1, 0x44, 1);
  put(2, 0xA1B2, 2);
  put(4, 0x11223344, 4);
  put(8, 0x8877665544332211, 8);
  put(16, 0x11223344, 4), put(20, 0xCAFEF00D, 4);
  put(32, 0xCAFEF00D, 4), put(36, 0x11223344, 4), put(40, 0xCAFEF00D, 4), put(44, 0x11223344, 4);
  put(52, 0xA1B2A1B2, 4);
  for (int i = 0; i < 4; ++i) put(64 + 4 * i, 0x3F800000, 4);
  put(84, 0xB2B2B2B2, 4);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(hex(run.buf[i]), hex(want[i])) << "byte " << i;
}

TEST(PtxMemory, SharedMemoryThroughWindowAndGenericAddresses) {
  const MemRun run = run_memory(R"(
    .shared .align 16 .b8 sbuf[256];
    mov.u32 %r0, sbuf;
    mov.u64 %t0, sbuf;
    cvta.shared.u64 %t1, %t0;
    cvta.to.shared.u64 %t2, %t1;
    mov.u32 %r1, 0xDEADBEEF;
    st.shared.u32 [sbuf+4], %r1;
    ld.u32 %r2, [%t1+4];                   // generic load of a shared address
    cvt.u64.u32 %t3, %r2;  st.global.u64 [%res], %t3;
    mov.u32 %r3, 0x01020304;
    st.u32 [%t1+8], %r3;                   // generic store
    ld.shared.u32 %r4, [%r0+8];            // 32-bit shared address
    cvt.u64.u32 %t3, %r4;  st.global.u64 [%res+8], %t3;
    st.shared.v4.u32 [sbuf+16], {%r1, %r3, %r1, %r3};
    ld.shared.v2.u64 {%t4, %t5}, [%t0+16];
    st.global.u64 [%res+16], %t4;
    ld.shared.s8 %r5, [sbuf+7];            // 0xde sign-extended
    cvt.u64.u32 %t3, %r5;  st.global.u64 [%res+24], %t3;
    setp.eq.u64 %p0, %t2, %t0;  selp.u64 %t3, 1, 0, %p0;  st.global.u64 [%res+32], %t3;
    isspacep.shared %p1, %t1;   selp.u64 %t3, 1, 0, %p1;  st.global.u64 [%res+40], %t3;
    isspacep.global %p2, %t1;   selp.u64 %t3, 1, 0, %p2;  st.global.u64 [%res+48], %t3;
    isspacep.global %p3, %buf;  selp.u64 %t3, 1, 0, %p3;  st.global.u64 [%res+56], %t3;
    cvta.to.shared.u32 %r6, %t1;
    setp.eq.u32 %p0, %r6, %r0;  selp.u64 %t3, 1, 0, %p0;  st.global.u64 [%res+64], %t3;
  )", {});
  ASSERT_EQ(run.fault, "");
  const std::vector<u64> want = {0xDEADBEEF, 0x01020304, 0x01020304DEADBEEF, 0xFFFFFFDE, 1, 1, 0, 1, 1};
  for (std::size_t k = 0; k < want.size(); ++k) EXPECT_EQ(hex(run.res[k]), hex(want[k])) << "result slot " << k;
}

TEST(PtxMemory, LocalMemoryThroughWindowAndGenericAddresses) {
  const MemRun run = run_memory(R"(
    .local .align 8 .b8 depot[64];
    mov.u64 %t0, depot;
    cvta.local.u64 %t1, %t0;
    mov.u32 %r0, 0x5A5A1234;
    st.local.u32 [%t0+4], %r0;
    ld.u32 %r1, [%t1+4];
    cvt.u64.u32 %t2, %r1;  st.global.u64 [%res], %t2;
    mov.u64 %t3, 0x0102030405060708;
    st.u64 [%t1+8], %t3;
    ld.local.u64 %t4, [depot+8];
    st.global.u64 [%res+8], %t4;
    ld.local.u8 %r2, [depot+9];
    cvt.u64.u32 %t2, %r2;  st.global.u64 [%res+16], %t2;
    cvta.to.local.u64 %t5, %t1;
    setp.eq.u64 %p0, %t5, %t0;  selp.u64 %t2, 1, 0, %p0;  st.global.u64 [%res+24], %t2;
    isspacep.local %p1, %t1;    selp.u64 %t2, 1, 0, %p1;  st.global.u64 [%res+32], %t2;
  )", {});
  ASSERT_EQ(run.fault, "");
  const std::vector<u64> want = {0x5A5A1234, 0x0102030405060708, 0x07, 1, 1};
  for (std::size_t k = 0; k < want.size(); ++k) EXPECT_EQ(hex(run.res[k]), hex(want[k])) << "result slot " << k;
}

TEST(PtxMemory, ParamAndModuleVariables) {
  const MemRun run = run_memory(R"(
    ld.param.u8 %r0, [blob+3];          cvt.u64.u32 %t0, %r0;  st.global.u64 [%res], %t0;
    ld.param.u16 %r0, [blob+4];         cvt.u64.u32 %t0, %r0;  st.global.u64 [%res+8], %t0;
    ld.param.v2.u32 {%r0, %r1}, [blob+8];
    mov.b64 %t0, {%r0, %r1};            st.global.u64 [%res+16], %t0;
    ld.global.u32 %r2, [gvar+8];        cvt.u64.u32 %t0, %r2;  st.global.u64 [%res+24], %t0;
    mov.u64 %t1, gvar;
    ld.global.u32 %r2, [%t1+12];        cvt.u64.u32 %t0, %r2;  st.global.u64 [%res+32], %t0;
    mov.u32 %r3, 99;
    st.global.u32 [gvar], %r3;
    ld.u32 %r4, [%t1];                  cvt.u64.u32 %t0, %r4;  st.global.u64 [%res+40], %t0;
    ld.const.u64 %t2, [cvar];           st.global.u64 [%res+48], %t2;
    ld.global.s8 %r5, [bvar+1];         cvt.u64.u32 %t0, %r5;  st.global.u64 [%res+56], %t0;
  )", {}, ".global .align 4 .u32 gvar[4] = {1, 2, 3, 4};\n.const .align 8 .u64 cvar = 77;\n.global .align 1 .b8 bvar[2] = {1, 255};\n");
  ASSERT_EQ(run.fault, "");
  const std::vector<u64> want = {0x13, 0x1514, 0x1F1E1D1C1B1A1918, 3, 4, 99, 77, 0xFFFFFFFF};
  for (std::size_t k = 0; k < want.size(); ++k) EXPECT_EQ(hex(run.res[k]), hex(want[k])) << "result slot " << k;
}

TEST(PtxMemory, ModuleVariableDeclarationsMayListSeveralNames) {
  // `.global .u32 first, second;` declares two variables, as .reg lists do.
  const MemRun run = run_memory(R"(
    mov.u32 %r0, 11;
    st.global.u32 [first], %r0;
    mov.u32 %r0, 22;
    st.global.u32 [second], %r0;
    ld.global.u32 %r1, [first];
    ld.global.u32 %r2, [second];
    mov.b64 %t0, {%r1, %r2};
    st.global.u64 [%res], %t0;
  )", {}, ".global .align 4 .u32 first, second;\n");
  ASSERT_EQ(run.fault, "");
  EXPECT_EQ(hex(run.res[0]), hex(0x000000160000000B));
}

TEST(PtxMemory, OrderingAndCacheQualifiersLoadAndStoreTheSameBytes) {
  const auto bytes = pattern();
  const MemRun run = run_memory(R"(
    ld.volatile.global.u32 %r0, [%buf];          st.relaxed.gpu.global.u32 [%res], %r0;
    ld.relaxed.gpu.global.u32 %r0, [%buf+4];     st.release.gpu.global.u32 [%res+8], %r0;
    ld.acquire.sys.global.u32 %r0, [%buf+8];     st.volatile.global.u32 [%res+16], %r0;
    ld.global.nc.u32 %r0, [%buf+12];             st.global.wb.u32 [%res+24], %r0;
    ld.global.cg.u32 %r0, [%buf+16];             st.global.cs.u32 [%res+32], %r0;
    ld.global.L1::evict_last.u32 %r0, [%buf+20]; st.global.L1::no_allocate.u32 [%res+40], %r0;
    ld.global.L2::128B.u32 %r0, [%buf+24];       st.relaxed.sys.global.u32 [%res+48], %r0;
    ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%r0, %r1, %r2, %r3}, [%buf+32];
    st.global.u32 [%res+56], %r3;
  )", bytes);
  ASSERT_EQ(run.fault, "");
  for (int k = 0; k < 7; ++k) EXPECT_EQ(hex(run.res[k]), hex(le(bytes, 4 * k, 4))) << "slot " << k;
  EXPECT_EQ(hex(run.res[7]), hex(le(bytes, 44, 4)));
}

TEST(PtxMemory, OutOfBoundsAndMisalignedAccessesFault) {
  EXPECT_EQ(run_memory("mov.u32 %r0, 1; st.global.u8 [%buf+255], %r0;", {}).fault, "");
  const std::string past_end = run_memory("mov.u32 %r0, 1; st.global.u8 [%buf+256], %r0;", {}).fault;
  EXPECT_NE(past_end.find("out-of-bounds"), std::string::npos) << past_end;
  const std::string far = run_memory("add.s64 %t0, %buf, 0x10000000; st.global.u32 [%t0], %r0;", {}).fault;
  EXPECT_NE(far.find("out-of-bounds"), std::string::npos) << far;
  for (const char* body : {"ld.global.u32 %r0, [%buf+2];", "ld.global.u64 %t0, [%buf+4];", "ld.global.v4.u32 {%r0, %r1, %r2, %r3}, [%buf+8];",
                           "st.global.u16 [%buf+1], %h0;"}) {
    const std::string fault = run_memory(std::string("mov.u16 %h0, 0; ") + body, {}).fault;
    EXPECT_NE(fault.find("misaligned"), std::string::npos) << body << ": " << fault;
  }
  const std::string shared = run_memory(".shared .align 4 .b8 s[64];\n ld.shared.u32 %r0, [s+64];", {}).fault;
  EXPECT_NE(shared.find("out-of-bounds"), std::string::npos) << shared;
}

}  // namespace
}  // namespace pkb::ptx_test
