// multimem on a multicast object over 2 ranks: ld_reduce sums (min, max, and) every rank's copy,
// multimem.st writes every copy, multimem.red adds into every copy.
#include "tests/ptx/float_reference.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;
using u32 = std::uint32_t;

struct MultiRun {
  std::string fault;
  std::vector<std::vector<u32>> copy, out;  // per rank: its 64-word copy, its 64 output words
};

// Two ranks each hold a 256-byte copy (`init[rank]`) in one multicast object; both launch one
// thread running `body` with %mc (the multicast address), %out (the rank's output buffer) and
// %rank, scratch %t0-3 %r0-15 %f0-7 %p0.
MultiRun run_multimem(const std::string& body, const std::vector<std::vector<u32>>& init) {
  PtxFixture fixture(2);
  fixture.load(ptx_module(R"(
.visible .entry multi(.param .u64 mc, .param .u64 out, .param .u32 rank)
{
  .reg .b64 %mc, %out, %t<4>;
  .reg .b32 %rank, %r<16>;
  .reg .f32 %f<8>;
  .reg .pred %p0;
  ld.param.u64 %mc, [mc];
  ld.param.u64 %out, [out];
  ld.param.u32 %rank, [rank];
  {
)" + body + R"(
  }
  ret;
}
)"));
  u64 copy[2], out[2];
  for (int r = 0; r < 2; ++r) {
    copy[r] = fixture.alloc(r, 256, "copy");
    out[r] = fixture.alloc(r, 256, "out");
    std::vector<u32> words = init[r];
    words.resize(64, 0);
    fixture.write(copy[r], words);
  }
  const int object = fixture.machine().memory().add_multicast({copy[0], copy[1]}, 256);
  const u64 mc = (0x4ull << 60) | (static_cast<u64>(object) << 40);
  MultiRun run;
  run.fault = fixture.run("multi", {1, 1, 1}, {1, 1, 1}, [&](int rank) {
    return std::vector<std::string>{u64_param(mc), u64_param(out[rank]), u32_param(static_cast<u32>(rank))};
  });
  for (int r = 0; r < 2; ++r) {
    run.copy.push_back(fixture.read<u32>(copy[r], 64));
    run.out.push_back(fixture.read<u32>(out[r], 64));
  }
  return run;
}

u32 fb(float v) { return static_cast<u32>(f32_bits(v)); }
u32 bf2(double lo, double hi) { return encode(kBF16, lo) | encode(kBF16, hi) << 16; }

TEST(PtxMultimem, LdReduceAddSumsEveryRanksF32Copy) {
  const MultiRun run = run_multimem(R"(
    multimem.ld_reduce.relaxed.sys.global.add.v4.f32 {%f0, %f1, %f2, %f3}, [%mc+16];
    st.global.v4.f32 [%out], {%f0, %f1, %f2, %f3};
    multimem.ld_reduce.relaxed.sys.global.add.f32 %f4, [%mc];
    st.global.f32 [%out+16], %f4;
  )", {{fb(1.0f), 0, 0, 0, fb(1.5f), fb(-2.0f), fb(1.0f), fb(1e30f)},
       {fb(0x1p-24f), 0, 0, 0, fb(2.25f), fb(0.5f), fb(0x1p-24f), fb(-1e30f)}});
  ASSERT_EQ(run.fault, "");
  for (int r = 0; r < 2; ++r) {
    // 1 + 2^-24 rounds (to even) to 1 in f32.
    const std::vector<u32> want = {fb(3.75f), fb(-1.5f), fb(1.0f), 0, fb(1.0f)};
    for (int i = 0; i < 5; ++i) EXPECT_EQ(hex(run.out[r][i]), hex(want[i])) << "rank " << r << " element " << i;
  }
}

TEST(PtxMultimem, LdReduceAddBf16x2WithF32Accumulation) {
  const MultiRun run = run_multimem(R"(
    multimem.ld_reduce.relaxed.sys.global.add.acc::f32.v4.bf16x2 {%r0, %r1, %r2, %r3}, [%mc];
    st.global.v4.u32 [%out], {%r0, %r1, %r2, %r3};
  )", {{bf2(1.0, 2.0), bf2(1.0, -3.0), bf2(100.0, 0.5), bf2(0.0, -0.0)},
       {bf2(0.5, 0.25), bf2(0x1p-8, 3.0), bf2(1.0, 0.25), bf2(0.0, -0.0)}});
  ASSERT_EQ(run.fault, "");
  // Element 0 is the low half; 1 + 2^-8 ties to 1; 100 + 1 = 101 is exact in bf16.
  const std::vector<u32> want = {bf2(1.5, 2.25), bf2(1.0, 0.0), bf2(101.0, 0.75), bf2(0.0, -0.0)};
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < 4; ++i) EXPECT_EQ(hex(run.out[r][i]), hex(want[i])) << "rank " << r << " word " << i;
}

TEST(PtxMultimem, LdReduceIntegerOps) {
  const MultiRun run = run_multimem(R"(
    multimem.ld_reduce.relaxed.sys.global.min.s32 %r0, [%mc];
    multimem.ld_reduce.relaxed.sys.global.max.u32 %r1, [%mc];
    multimem.ld_reduce.relaxed.sys.global.and.b32 %r2, [%mc+4];
    multimem.ld_reduce.relaxed.sys.global.add.u32 %r3, [%mc+8];
    st.global.v4.u32 [%out], {%r0, %r1, %r2, %r3};
  )", {{0xFFFFFFFB, 0xF0F0FFFF, 7}, {3, 0xFFFF0F0F, 0xFFFFFFFF}});
  ASSERT_EQ(run.fault, "");
  const std::vector<u32> want = {0xFFFFFFFB, 0xFFFFFFFB, 0xF0F00F0F, 6};
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < 4; ++i) EXPECT_EQ(hex(run.out[r][i]), hex(want[i])) << "rank " << r << " word " << i;
}

TEST(PtxMultimem, StoreWritesEveryCopy) {
  const MultiRun run = run_multimem(R"(
    setp.ne.u32 %p0, %rank, 0;
    @%p0 bra DONE;
    mov.f32 %f0, 0f3F800000;
    mov.f32 %f1, 0f40000000;
    mov.f32 %f2, 0fC0400000;
    mov.f32 %f3, 0f40800000;
    multimem.st.relaxed.sys.global.v4.f32 [%mc+32], {%f0, %f1, %f2, %f3};
    mov.u32 %r0, 0xABCD1234;
    multimem.st.relaxed.sys.global.u32 [%mc+4], %r0;
  DONE:
  )", {{1, 2}, {3, 4}});
  ASSERT_EQ(run.fault, "");
  for (int r = 0; r < 2; ++r) {
    EXPECT_EQ(run.copy[r][0], r == 0 ? 1u : 3u);
    EXPECT_EQ(hex(run.copy[r][1]), hex(0xABCD1234)) << "rank " << r;
    const std::vector<u32> want = {fb(1.0f), fb(2.0f), fb(-3.0f), fb(4.0f)};
    for (int i = 0; i < 4; ++i) EXPECT_EQ(hex(run.copy[r][8 + i]), hex(want[i])) << "rank " << r << " element " << i;
  }
}

TEST(PtxMultimem, ReduceAddsIntoEveryCopy) {
  // Both ranks add (rank + 1) * (0.5, 1, 2, 4) and rank + 10 into every copy.
  const MultiRun run = run_multimem(R"(
    add.u32 %r0, %rank, 1;
    cvt.rn.f32.u32 %f4, %r0;
    mul.f32 %f0, %f4, 0f3F000000;
    mul.f32 %f1, %f4, 0f3F800000;
    mul.f32 %f2, %f4, 0f40000000;
    mul.f32 %f3, %f4, 0f40800000;
    multimem.red.relaxed.sys.global.add.v4.f32 [%mc], {%f0, %f1, %f2, %f3};
    add.u32 %r1, %rank, 10;
    multimem.red.relaxed.sys.global.add.u32 [%mc+16], %r1;
    multimem.red.relaxed.sys.global.add.f32 [%mc+20], %f4;
  )", {{fb(1.0f), fb(1.0f), fb(1.0f), fb(1.0f), 100, fb(0.25f)}, {fb(-1.0f), 0, 0, 0, 200, 0}});
  ASSERT_EQ(run.fault, "");
  const std::vector<std::vector<u32>> want = {{fb(2.5f), fb(4.0f), fb(7.0f), fb(13.0f), 121, fb(3.25f)},
                                              {fb(0.5f), fb(3.0f), fb(6.0f), fb(12.0f), 221, fb(3.0f)}};
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < 6; ++i) EXPECT_EQ(hex(run.copy[r][i]), hex(want[r][i])) << "rank " << r << " word " << i;
}

}  // namespace
}  // namespace pkb::ptx_test
