// mma.sync against a reference matrix product, with the fragments laid out by the PTX ISA's tables
// (groupID = laneid >> 2, threadID_in_group = laneid % 4); small integer inputs make every product
// exact. Shapes: m16n8k16 bf16/f16 (f32 and f16 accumulators), m16n8k8 f16 and tf32, m16n8k32 s8.
#include <array>

#include "tests/ptx/float_reference.h"

namespace pkb::ptx_test {
namespace {

using u32 = std::uint32_t;

struct Fragments {
  u32 a[4] = {}, b[2] = {}, c[4] = {};
};

struct Problem {
  int m = 16, n = 8, k = 16;
  std::vector<int> A, B, C;  // row-major M x K, K x N, M x N
  int a(int r, int c) const { return A[r * k + c]; }
  int b(int r, int c) const { return B[r * n + c]; }
  long d(int r, int c) const {
    long sum = C[r * n + c];
    for (int i = 0; i < k; ++i) sum += static_cast<long>(a(r, i)) * b(i, c);
    return sum;
  }
};

Problem make_problem(int k, int range) {
  Problem p;
  p.k = k;
  for (int i = 0; i < p.m * k; ++i) p.A.push_back((i * 7 + 3) % (2 * range + 1) - range);
  for (int i = 0; i < k * p.n; ++i) p.B.push_back((i * 5 + 1) % (2 * range + 1) - range);
  for (int i = 0; i < p.m * p.n; ++i) p.C.push_back((i * 3) % 21 - 10);
  return p;
}

// Runs `mma` (operands {%a..}, {%b..}, {%c..} or {%fc..}, result {%d..} or {%fd..}) on one warp
// with per-lane fragments; returns each lane's four result words.
std::vector<std::array<u32, 4>> run_mma(const std::string& mma, const std::vector<Fragments>& frags, std::string& fault) {
  PtxFixture fixture;
  fixture.load(ptx_module(R"(
.visible .entry mma(.param .u64 in, .param .u64 out)
{
  .reg .b64 %pi, %po, %o;
  .reg .b32 %lane, %a<4>, %b<2>, %c<4>, %d<4>, %pad<2>;
  .reg .f32 %fc<4>, %fd<4>;
  ld.param.u64 %pi, [in];
  ld.param.u64 %po, [out];
  mov.u32 %lane, %laneid;
  mul.wide.u32 %o, %lane, 48;
  add.s64 %pi, %pi, %o;
  ld.global.v4.u32 {%a0, %a1, %a2, %a3}, [%pi];
  ld.global.v4.u32 {%b0, %b1, %pad0, %pad1}, [%pi+16];
  ld.global.v4.u32 {%c0, %c1, %c2, %c3}, [%pi+32];
  mov.b32 %fc0, %c0;
  mov.b32 %fc1, %c1;
  mov.b32 %fc2, %c2;
  mov.b32 %fc3, %c3;
  mov.b32 %d0, 0;
  mov.b32 %d1, 0;
  mov.b32 %d2, 0;
  mov.b32 %d3, 0;
  mov.b32 %fd0, %d0;
  mov.b32 %fd1, %d0;
  mov.b32 %fd2, %d0;
  mov.b32 %fd3, %d0;
)" + mma + R"(
  mov.b32 %pad0, %fd0;
  mov.b32 %pad1, %fd1;
  or.b32 %d0, %d0, %pad0;
  or.b32 %d1, %d1, %pad1;
  mov.b32 %pad0, %fd2;
  mov.b32 %pad1, %fd3;
  or.b32 %d2, %d2, %pad0;
  or.b32 %d3, %d3, %pad1;
  mul.wide.u32 %o, %lane, 16;
  add.s64 %po, %po, %o;
  st.global.v4.u32 [%po], {%d0, %d1, %d2, %d3};
  ret;
}
)"));
  std::vector<u32> words;
  for (const Fragments& f : frags) {
    for (u32 v : f.a) words.push_back(v);
    words.push_back(f.b[0]), words.push_back(f.b[1]), words.push_back(0), words.push_back(0);
    for (u32 v : f.c) words.push_back(v);
  }
  const std::uint64_t in = fixture.alloc(0, words.size() * 4, "fragments"), out = fixture.alloc(0, 32 * 16, "d");
  fixture.write(in, words);
  fault = fixture.run("mma", {1, 1, 1}, {32, 1, 1}, [&](int) { return std::vector<std::string>{u64_param(in), u64_param(out)}; });
  const auto got = fixture.read<u32>(out, 32 * 4);
  std::vector<std::array<u32, 4>> d(32);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) d[lane][i] = got[lane * 4 + i];
  return d;
}

// The f32 C fragment and the expected f32 D fragment: ci at row groupID (+8 for i >= 2), column
// 2 * threadID_in_group + (i & 1).
int c_row(int lane, int i) { return (lane >> 2) + (i >= 2 ? 8 : 0); }
int c_col(int lane, int i) { return 2 * (lane % 4) + (i & 1); }

void fill_f32_c(const Problem& p, std::vector<Fragments>& frags) {
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) frags[lane].c[i] = static_cast<u32>(f32_bits(static_cast<float>(p.C[c_row(lane, i) * 8 + c_col(lane, i)])));
}

void expect_f32_d(const std::string& what, const Problem& p, const std::vector<std::array<u32, 4>>& d) {
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(hex(d[lane][i]), hex(f32_bits(static_cast<float>(p.d(c_row(lane, i), c_col(lane, i))))))
          << what << ": lane " << lane << " d" << i << " = D[" << c_row(lane, i) << "][" << c_col(lane, i) << "]";
}

// m16n8k16 A (16-bit elements): ai at row groupID (+8 for i = 2, 3, 6, 7), column
// 2 * threadID_in_group + (i & 1) (+8 for i >= 4); B: bi at row 2 * threadID_in_group + (i & 1)
// (+8 for i >= 2), column groupID. Two elements per register, the lower index in the low half.
std::vector<Fragments> k16_fragments(const Problem& p, Format f) {
  std::vector<Fragments> frags(32);
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane >> 2, t = lane % 4;
    for (int i = 0; i < 8; ++i) {
      const int row = g + ((i & 2) ? 8 : 0), col = 2 * t + (i & 1) + (i >= 4 ? 8 : 0);
      frags[lane].a[i / 2] |= encode(f, p.a(row, col)) << (16 * (i & 1));
    }
    for (int i = 0; i < 4; ++i) {
      const int row = 2 * t + (i & 1) + (i >= 2 ? 8 : 0);
      frags[lane].b[i / 2] |= encode(f, p.b(row, g)) << (16 * (i & 1));
    }
  }
  return frags;
}

TEST(PtxMatrix, MmaM16n8k16Bf16AndF16WithF32Accumulators) {
  const Problem p = make_problem(16, 3);
  for (const auto& [type, format] : {std::pair<std::string, Format>{"bf16", kBF16}, {"f16", kF16}}) {
    std::vector<Fragments> frags = k16_fragments(p, format);
    fill_f32_c(p, frags);
    std::string fault;
    const auto d = run_mma("mma.sync.aligned.m16n8k16.row.col.f32." + type + "." + type +
                               ".f32 {%fd0, %fd1, %fd2, %fd3}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, {%fc0, %fc1, %fc2, %fc3};",
                           frags, fault);
    ASSERT_EQ(fault, "") << type;
    expect_f32_d("m16n8k16 " + type, p, d);
  }
}

TEST(PtxMatrix, MmaM16n8k16F16WithF16Accumulators) {
  // C and D are two f16x2 registers: (c0, c1) rows groupID, (c2, c3) rows groupID + 8.
  const Problem p = make_problem(16, 3);
  std::vector<Fragments> frags = k16_fragments(p, kF16);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) frags[lane].c[i / 2] |= encode(kF16, p.C[c_row(lane, i) * 8 + c_col(lane, i)]) << (16 * (i & 1));
  std::string fault;
  const auto d = run_mma("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%d0, %d1}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, {%c0, %c1};",
                         frags, fault);
  ASSERT_EQ(fault, "");
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(hex((d[lane][i / 2] >> (16 * (i & 1))) & 0xFFFF), hex(encode(kF16, p.d(c_row(lane, i), c_col(lane, i)))))
          << "lane " << lane << " element " << i;
}

TEST(PtxMatrix, MmaM16n8k8F16AndTf32) {
  const Problem p = make_problem(8, 4);
  // f16 m16n8k8: A two registers (rows groupID, groupID + 8; columns 2t + (i & 1)); B one.
  std::vector<Fragments> f16(32);
  // tf32 m16n8k8: a0 (groupID, t), a1 (groupID + 8, t), a2 (groupID, t + 4), a3 (groupID + 8,
  // t + 4); b0 (t, groupID), b1 (t + 4, groupID). One element per register.
  std::vector<Fragments> tf32(32);
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane >> 2, t = lane % 4;
    for (int i = 0; i < 4; ++i) f16[lane].a[i / 2] |= encode(kF16, p.a(g + (i >= 2 ? 8 : 0), 2 * t + (i & 1))) << (16 * (i & 1));
    for (int i = 0; i < 2; ++i) f16[lane].b[0] |= encode(kF16, p.b(2 * t + i, g)) << (16 * i);
    for (int i = 0; i < 4; ++i)
      tf32[lane].a[i] = static_cast<u32>(f32_bits(static_cast<float>(p.a(g + (i & 1) * 8, t + (i >= 2 ? 4 : 0)))));
    for (int i = 0; i < 2; ++i) tf32[lane].b[i] = static_cast<u32>(f32_bits(static_cast<float>(p.b(t + 4 * i, g))));
  }
  fill_f32_c(p, f16);
  fill_f32_c(p, tf32);
  std::string fault;
  auto d = run_mma("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%fd0, %fd1, %fd2, %fd3}, {%a0, %a1}, {%b0}, {%fc0, %fc1, %fc2, %fc3};",
                   f16, fault);
  ASSERT_EQ(fault, "");
  expect_f32_d("m16n8k8 f16", p, d);
  d = run_mma("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%fd0, %fd1, %fd2, %fd3}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, {%fc0, %fc1, %fc2, %fc3};",
              tf32, fault);
  ASSERT_EQ(fault, "");
  expect_f32_d("m16n8k8 tf32", p, d);
}

TEST(PtxMatrix, MmaM16n8k32S8) {
  // A: ai at row groupID (+8 for 4 <= i < 8 and i >= 12), column 4t + (i & 3) (+16 for i >= 8);
  // B: bi at row 4t + (i & 3) (+16 for i >= 4), column groupID. Four bytes per register.
  const Problem p = make_problem(32, 100);
  std::vector<Fragments> frags(32);
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane >> 2, t = lane % 4;
    for (int i = 0; i < 16; ++i) {
      const int row = g + (((i >> 2) & 1) ? 8 : 0), col = 4 * t + (i & 3) + (i >= 8 ? 16 : 0);
      frags[lane].a[i / 4] |= (static_cast<u32>(p.a(row, col)) & 0xFF) << (8 * (i & 3));
    }
    for (int i = 0; i < 8; ++i)
      frags[lane].b[i / 4] |= (static_cast<u32>(p.b(4 * t + (i & 3) + (i >= 4 ? 16 : 0), g)) & 0xFF) << (8 * (i & 3));
    for (int i = 0; i < 4; ++i) frags[lane].c[i] = static_cast<u32>(p.C[c_row(lane, i) * 8 + c_col(lane, i)]);
  }
  std::string fault;
  const auto d = run_mma("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, {%c0, %c1, %c2, %c3};",
                         frags, fault);
  ASSERT_EQ(fault, "");
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(static_cast<std::int32_t>(d[lane][i]), p.d(c_row(lane, i), c_col(lane, i))) << "lane " << lane << " d" << i;
}

TEST(PtxMatrix, MmaS8SatfiniteClampsTheAccumulation) {
  // C = INT_MAX - 10 (or INT_MIN + 10) everywhere, and every product sum is +-(32 * 4): the exact
  // result overflows; .satfinite clamps it to INT_MAX / INT_MIN.
  std::vector<Fragments> frags(32);
  for (int lane = 0; lane < 32; ++lane) {
    for (int r = 0; r < 4; ++r) frags[lane].a[r] = 0x02020202;
    frags[lane].b[0] = frags[lane].b[1] = 0x02020202;
    for (int i = 0; i < 4; ++i) frags[lane].c[i] = i < 2 ? 0x7FFFFFF5 : 0x8000000A;
    // Rows groupID + 8 (c2, c3) get A = -2 so their sums are negative.
    frags[lane].a[1] = frags[lane].a[3] = 0xFEFEFEFE;
  }
  std::string fault;
  const auto d = run_mma("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, {%c0, %c1, %c2, %c3};",
                         frags, fault);
  ASSERT_EQ(fault, "");
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < 4; ++i) EXPECT_EQ(hex(d[lane][i]), hex(i < 2 ? 0x7FFFFFFF : 0x80000000)) << "lane " << lane << " d" << i;
}

}  // namespace
}  // namespace pkb::ptx_test
