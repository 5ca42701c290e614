// nvcuda::wmma end to end: kernels NVRTC compiles (as every candidate is, with pkb.cuh) run on the
// interpreter against a host product. Small integer inputs (and halves of them) make every
// product and sum exact, so the check is bit for bit. Shapes: m16n16k16 bf16 with f32
// accumulators (and an elementwise op on the fragment), m32n8k16 f16 through shared memory with f16
// accumulators, m8n32k16 f16, m16n16k8 tf32. Also: the fragments hold what they hold on sm_80 and
// sm_90 (programs index them), and the default stride of hand-written PTX.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/ptx/instruction_cases.h"
#include "tests/ptx/nvrtc_ptx.h"
#include "tests/ptx/ptx_fixture.h"

namespace pkb::ptx_test {
namespace {

constexpr const char* kSource = R"(
#include <mma.h>
using namespace nvcuda;

// D = 2 (A B) + C, A row-major 16 x 16 (lda 16), B column-major (ldb 24), C and D row-major.
extern "C" __global__ void bf16_16x16x16(const __nv_bfloat16* a, const __nv_bfloat16* b, const float* c, float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, fc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 24);
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::mma_sync(acc, fa, fb, acc);
  for (int i = 0; i < acc.num_elements; ++i) acc.x[i] = 2.0f * acc.x[i] + fc.x[i];
  wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

// D = A B + C with A column-major 32 x 16 and B row-major 16 x 8, staged in shared memory; C
// column-major, D row-major (f16).
extern "C" __global__ void f16_32x8x16(const half* a, const half* b, const half* c, half* d) {
  __shared__ __align__(32) half sa[32 * 16], sb[16 * 8], sd[32 * 8];
  for (int i = threadIdx.x; i < 32 * 16; i += 32) sa[i] = a[i];
  for (int i = threadIdx.x; i < 16 * 8; i += 32) sb[i] = b[i];
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 32, 8, 16, half> fc;
  wmma::load_matrix_sync(fa, sa, 32);
  wmma::load_matrix_sync(fb, sb, 8);
  wmma::load_matrix_sync(fc, c, 32, wmma::mem_col_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(sd, fc, 8, wmma::mem_row_major);
  __syncwarp();
  for (int i = threadIdx.x; i < 32 * 8; i += 32) d[i] = sd[i];
}

// D = A B, A row-major 8 x 16, B column-major 16 x 32, D row-major f32.
extern "C" __global__ void f16_8x32x16(const half* a, const half* b, float* d) {
  wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 32, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(d, acc, 32, wmma::mem_row_major);
}

// D = A B, A row-major 16 x 8, B row-major 8 x 16 (f32 rounded to tf32), D column-major.
extern "C" __global__ void tf32_16x16x8(const float* a, const float* b, float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::load_matrix_sync(fa, a, 8);
  wmma::load_matrix_sync(fb, b, 16);
  for (int i = 0; i < fa.num_elements; ++i) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
  for (int i = 0; i < fb.num_elements; ++i) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
  wmma::fill_fragment(acc, 0.0f);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(d, acc, 16, wmma::mem_col_major);
}

// Each lane's fragment elements of 16 x 16 matrices holding their own row-major index: an f32
// accumulator, a bf16 A and an f16 A (whose 16 elements hold 8 distinct ones).
extern "C" __global__ void fragments(const float* index, const __nv_bfloat16* index_bf16, const half* index_f16,
                                     float* acc_out, float* bf16_out, float* f16_out) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a_bf16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_f16;
  wmma::load_matrix_sync(acc, index, 16, wmma::mem_row_major);
  wmma::load_matrix_sync(a_bf16, index_bf16, 16);
  wmma::load_matrix_sync(a_f16, index_f16, 16);
  const int lane = threadIdx.x % 32;
  for (int i = 0; i < acc.num_elements; ++i) acc_out[lane * acc.num_elements + i] = acc.x[i];
  for (int i = 0; i < a_bf16.num_elements; ++i) bf16_out[lane * a_bf16.num_elements + i] = __bfloat162float(a_bf16.x[i]);
  for (int i = 0; i < a_f16.num_elements; ++i) f16_out[lane * a_f16.num_elements + i] = __half2float(a_f16.x[i]);
}
)";

const std::string& compiled_ptx() {
  static const std::string ptx = nvrtc_ptx(kSource, "the wmma kernels");
  return ptx;
}

// Exactly representable test values: small multiples of 1/2.
double value_a(int r, int k) { return ((r * 3 + k * 5) % 7 - 3) * 0.5; }
double value_b(int k, int n) { return (k * 2 + n * 7) % 5 - 2; }
double value_c(int r, int n) { return (r + 2 * n) % 9 - 4; }

std::uint16_t bf16_bits(double x) {
  const auto f = static_cast<std::uint32_t>(f32_bits(static_cast<float>(x)));
  return static_cast<std::uint16_t>(f >> 16);  // exact for these values
}

std::uint16_t f16_bits(double x) {
  // Small multiples of 1/2 below 2048: normal halves built from sign, exponent and mantissa.
  if (x == 0) return 0;
  const std::uint16_t sign = x < 0 ? 0x8000 : 0;
  double m = std::fabs(x);
  int e = 0;
  while (m >= 2) m /= 2, ++e;
  while (m < 1) m *= 2, --e;
  return static_cast<std::uint16_t>(sign | (e + 15) << 10 | static_cast<int>((m - 1) * 1024));
}

double f16_value(std::uint16_t bits) {
  const int e = bits >> 10 & 0x1F, m = bits & 0x3FF;
  const double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return bits & 0x8000 ? -v : v;
}

double product(int r, int n, int k_count) {
  double sum = 0;
  for (int k = 0; k < k_count; ++k) sum += value_a(r, k) * value_b(k, n);
  return sum;
}

TEST(PtxWmmaNvrtc, Bf16M16n16k16MatchesTheHostProduct) {
  PtxFixture fixture;
  fixture.load(compiled_ptx());
  std::vector<std::uint16_t> a(16 * 16), b(16 * 24);
  std::vector<float> c(16 * 16);
  for (int r = 0; r < 16; ++r)
    for (int k = 0; k < 16; ++k) a[r * 16 + k] = bf16_bits(value_a(r, k));
  for (int n = 0; n < 16; ++n)
    for (int k = 0; k < 16; ++k) b[n * 24 + k] = bf16_bits(value_b(k, n));
  for (int r = 0; r < 16; ++r)
    for (int n = 0; n < 16; ++n) c[r * 16 + n] = static_cast<float>(value_c(r, n));
  const auto pa = fixture.alloc(0, a.size() * 2, "a"), pb = fixture.alloc(0, b.size() * 2, "b"),
             pc = fixture.alloc(0, c.size() * 4, "c"), pd = fixture.alloc(0, 16 * 16 * 4, "d");
  fixture.write(pa, a);
  fixture.write(pb, b);
  fixture.write(pc, c);
  ASSERT_EQ(fixture.run("bf16_16x16x16", {1, 1, 1}, {32, 1, 1},
                        [&](int) {
                          return std::vector<std::string>{u64_param(pa), u64_param(pb),
                                                          u64_param(pc), u64_param(pd)};
                        }),
            "");
  const auto d = fixture.read<float>(pd, 16 * 16);
  for (int r = 0; r < 16; ++r)
    for (int n = 0; n < 16; ++n)
      EXPECT_EQ(d[r * 16 + n], 2 * product(r, n, 16) + value_c(r, n))
          << "D[" << r << "][" << n << "]";
}

TEST(PtxWmmaNvrtc, F16M32n8k16ThroughSharedMemory) {
  PtxFixture fixture;
  fixture.load(compiled_ptx());
  std::vector<std::uint16_t> a(32 * 16), b(16 * 8), c(32 * 8);
  for (int r = 0; r < 32; ++r)
    for (int k = 0; k < 16; ++k) a[k * 32 + r] = f16_bits(value_a(r, k));  // column-major
  for (int k = 0; k < 16; ++k)
    for (int n = 0; n < 8; ++n) b[k * 8 + n] = f16_bits(value_b(k, n));
  for (int r = 0; r < 32; ++r)
    for (int n = 0; n < 8; ++n) c[n * 32 + r] = f16_bits(value_c(r, n));  // column-major
  const auto pa = fixture.alloc(0, a.size() * 2, "a"), pb = fixture.alloc(0, b.size() * 2, "b"),
             pc = fixture.alloc(0, c.size() * 2, "c"), pd = fixture.alloc(0, 32 * 8 * 2, "d");
  fixture.write(pa, a);
  fixture.write(pb, b);
  fixture.write(pc, c);
  ASSERT_EQ(fixture.run("f16_32x8x16", {1, 1, 1}, {32, 1, 1},
                        [&](int) {
                          return std::vector<std::string>{u64_param(pa), u64_param(pb),
                                                          u64_param(pc), u64_param(pd)};
                        }),
            "");
  const auto d = fixture.read<std::uint16_t>(pd, 32 * 8);
  for (int r = 0; r < 32; ++r)
    for (int n = 0; n < 8; ++n)
      EXPECT_EQ(f16_value(d[r * 8 + n]), product(r, n, 16) + value_c(r, n))
          << "D[" << r << "][" << n << "]";
}

TEST(PtxWmmaNvrtc, F16M8n32k16) {
  PtxFixture fixture;
  fixture.load(compiled_ptx());
  std::vector<std::uint16_t> a(8 * 16), b(32 * 16);
  for (int r = 0; r < 8; ++r)
    for (int k = 0; k < 16; ++k) a[r * 16 + k] = f16_bits(value_a(r, k));
  for (int n = 0; n < 32; ++n)
    for (int k = 0; k < 16; ++k) b[n * 16 + k] = f16_bits(value_b(k, n));
  const auto pa = fixture.alloc(0, a.size() * 2, "a"), pb = fixture.alloc(0, b.size() * 2, "b"),
             pd = fixture.alloc(0, 8 * 32 * 4, "d");
  fixture.write(pa, a);
  fixture.write(pb, b);
  ASSERT_EQ(
      fixture.run("f16_8x32x16", {1, 1, 1}, {32, 1, 1},
                  [&](int) {
                    return std::vector<std::string>{u64_param(pa), u64_param(pb), u64_param(pd)};
                  }),
      "");
  const auto d = fixture.read<float>(pd, 8 * 32);
  for (int r = 0; r < 8; ++r)
    for (int n = 0; n < 32; ++n)
      EXPECT_EQ(d[r * 32 + n], product(r, n, 16)) << "D[" << r << "][" << n << "]";
}

TEST(PtxWmmaNvrtc, Tf32M16n16k8) {
  PtxFixture fixture;
  fixture.load(compiled_ptx());
  std::vector<float> a(16 * 8), b(8 * 16);
  for (int r = 0; r < 16; ++r)
    for (int k = 0; k < 8; ++k) a[r * 8 + k] = static_cast<float>(value_a(r, k));
  for (int k = 0; k < 8; ++k)
    for (int n = 0; n < 16; ++n) b[k * 16 + n] = static_cast<float>(value_b(k, n));
  const auto pa = fixture.alloc(0, a.size() * 4, "a"), pb = fixture.alloc(0, b.size() * 4, "b"),
             pd = fixture.alloc(0, 16 * 16 * 4, "d");
  fixture.write(pa, a);
  fixture.write(pb, b);
  ASSERT_EQ(
      fixture.run("tf32_16x16x8", {1, 1, 1}, {32, 1, 1},
                  [&](int) {
                    return std::vector<std::string>{u64_param(pa), u64_param(pb), u64_param(pd)};
                  }),
      "");
  const auto d = fixture.read<float>(pd, 16 * 16);
  for (int r = 0; r < 16; ++r)
    for (int n = 0; n < 16; ++n)
      EXPECT_EQ(d[n * 16 + r], product(r, n, 8)) << "D[" << r << "][" << n << "]";
}

// sm_80 / sm_90: A is mma.m16n8k16's A fragment, the accumulator two mma n-halves side by side.
TEST(PtxWmmaNvrtc, FragmentsFollowTheSm80Layout) {
  PtxFixture fixture;
  fixture.load(compiled_ptx());
  std::vector<float> index(256);
  std::vector<std::uint16_t> index_bf16(256), index_f16(256);
  for (int i = 0; i < 256; ++i) {
    index[static_cast<std::size_t>(i)] = static_cast<float>(i);
    index_bf16[static_cast<std::size_t>(i)] = bf16_bits(i);  // integers to 256 are exact in bf16
    index_f16[static_cast<std::size_t>(i)] = f16_bits(i);
  }
  const auto pi = fixture.alloc(0, 256 * 4, "index"), pb = fixture.alloc(0, 256 * 2, "index_bf16"),
             ph = fixture.alloc(0, 256 * 2, "index_f16"), acc = fixture.alloc(0, 32 * 8 * 4, "acc"),
             bf16 = fixture.alloc(0, 32 * 8 * 4, "bf16"),
             f16 = fixture.alloc(0, 32 * 16 * 4, "f16");
  fixture.write(pi, index);
  fixture.write(pb, index_bf16);
  fixture.write(ph, index_f16);
  ASSERT_EQ(fixture.run("fragments", {1, 1, 1}, {32, 1, 1},
                        [&](int) {
                          return std::vector<std::string>{u64_param(pi),   u64_param(pb),
                                                          u64_param(ph),   u64_param(acc),
                                                          u64_param(bf16), u64_param(f16)};
                        }),
            "");
  const auto got_acc = fixture.read<float>(acc, 32 * 8),
             got_bf16 = fixture.read<float>(bf16, 32 * 8),
             got_f16 = fixture.read<float>(f16, 32 * 16);
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane / 4, t = lane % 4;
    for (int i = 0; i < 8; ++i) {
      const int acc_at = (g + 8 * ((i >> 1) & 1)) * 16 + 2 * t + (i & 1) + 8 * (i >> 2);
      const int a_at = (g + 8 * ((i >> 1) & 1)) * 16 + 2 * t + (i & 1) + 8 * (i >> 2);
      EXPECT_EQ(got_acc[static_cast<std::size_t>(lane * 8 + i)], acc_at)
          << "lane " << lane << " accumulator x[" << i << "]";
      EXPECT_EQ(got_bf16[static_cast<std::size_t>(lane * 8 + i)], a_at)
          << "lane " << lane << " bf16 A x[" << i << "]";
      EXPECT_EQ(got_f16[static_cast<std::size_t>(lane * 16 + i)], a_at)
          << "lane " << lane << " f16 A x[" << i << "]";
      EXPECT_EQ(got_f16[static_cast<std::size_t>(lane * 16 + 8 + i)], a_at)
          << "lane " << lane << " f16 A x[" << 8 + i << "]";
    }
  }
}

// Without a stride operand the leading dimension is the matrix's own: 32 for a column-major
// m32n8k16 C, 8 for a row-major D.
TEST(PtxWmmaNvrtc, HandWrittenLoadAndStoreDefaultToTheMatrixStride) {
  PtxFixture fixture;
  fixture.load(ptx_module(R"(
.visible .entry copy(.param .u64 c, .param .u64 d)
{
  .reg .b64 %pc, %pd;
  .reg .f32 %f<8>;
  ld.param.u64 %pc, [c];
  ld.param.u64 %pd, [d];
  wmma.load.c.sync.aligned.col.m32n8k16.global.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, [%pc];
  wmma.store.d.sync.aligned.row.m32n8k16.f32 [%pd], {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};
  ret;
}
)"));
  std::vector<float> c(32 * 8);
  for (int r = 0; r < 32; ++r)
    for (int n = 0; n < 8; ++n)
      c[static_cast<std::size_t>(n * 32 + r)] = static_cast<float>(r * 8 + n);
  const auto pc = fixture.alloc(0, c.size() * 4, "c"), pd = fixture.alloc(0, c.size() * 4, "d");
  fixture.write(pc, c);
  ASSERT_EQ(fixture.run("copy", {1, 1, 1}, {32, 1, 1},
                        [&](int) {
                          return std::vector<std::string>{u64_param(pc), u64_param(pd)};
                        }),
            "");
  const auto d = fixture.read<float>(pd, 32 * 8);
  for (int i = 0; i < 32 * 8; ++i)
    EXPECT_EQ(d[static_cast<std::size_t>(i)], i) << "D element " << i;
}

}  // namespace
}  // namespace pkb::ptx_test
