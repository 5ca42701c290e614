// wmma: load A, B and C from global memory (row / col layouts, padded strides in elements), mma,
// store D; the fragment layout is opaque, so D = A * B + C in memory is what the ISA defines.
// Shapes m16n16k16 f16 (f32 and f16 accumulators), bf16, and m16n16k8 tf32.
#include "tests/ptx/float_reference.h"

namespace pkb::ptx_test {
namespace {

using u64 = std::uint64_t;

struct WmmaCase {
  std::string load_a, load_b, load_c, mma, store_d;  // instruction text without operands
  int a_regs, b_regs, cd_regs, k;
  Format in;        // element format of A and B (tf32 is stored as f32)
  bool tf32, f16_acc;
};

// A row-major with stride 24, B column-major with stride 40, C row-major with stride 16, D
// row-major with stride 20 (elements). Values are small integers, so every sum is exact.
void expect_wmma(const WmmaCase& w) {
  const int M = 16, N = 16, K = w.k, lda = 24, ldb = 40, ldc = 16, ldd = 20;
  const int in_bytes = w.tf32 ? 4 : 2, acc_bytes = w.f16_acc ? 2 : 4;
  std::vector<std::uint8_t> a(M * lda * in_bytes), b(N * ldb * in_bytes), c(M * ldc * acc_bytes);
  auto put = [](std::vector<std::uint8_t>& v, int index, int bytes, std::uint32_t bits) {
    for (int i = 0; i < bytes; ++i) v[index * bytes + i] = static_cast<std::uint8_t>(bits >> (8 * i));
  };
  auto element = [&](double x) { return w.tf32 ? static_cast<std::uint32_t>(f32_bits(static_cast<float>(x))) : encode(w.in, x); };
  auto A = [](int r, int k) { return (r * 3 + k * 5) % 7 - 3; };
  auto B = [](int k, int n) { return (k * 2 + n * 7) % 5 - 2; };
  auto C = [](int r, int n) { return (r + 2 * n) % 9 - 4; };
  for (int r = 0; r < M; ++r)
    for (int k = 0; k < K; ++k) put(a, r * lda + k, in_bytes, element(A(r, k)));
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k) put(b, n * ldb + k, in_bytes, element(B(k, n)));
  for (int r = 0; r < M; ++r)
    for (int n = 0; n < N; ++n)
      put(c, r * ldc + n, acc_bytes, w.f16_acc ? encode(kF16, C(r, n)) : static_cast<std::uint32_t>(f32_bits(static_cast<float>(C(r, n)))));
  auto regs = [](const std::string& prefix, int n) {
    std::string text = "{";
    for (int i = 0; i < n; ++i) text += (i ? ", %" : "%") + prefix + std::to_string(i);
    return text + "}";
  };
  const std::string acc = w.f16_acc ? "h" : "f";
  PtxFixture fixture;
  fixture.load(ptx_module(R"(
.visible .entry wmma(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 d)
{
  .reg .b64 %pa, %pb, %pc, %pd;
  .reg .b32 %a<8>, %b<8>, %h<8>, %hd<8>;
  .reg .f32 %f<8>, %fd<8>;
  ld.param.u64 %pa, [a];
  ld.param.u64 %pb, [b];
  ld.param.u64 %pc, [c];
  ld.param.u64 %pd, [d];
  )" + w.load_a + " " + regs("a", w.a_regs) + ", [%pa], " + std::to_string(lda) + ";\n  " + w.load_b + " " + regs("b", w.b_regs) +
                          ", [%pb], " + std::to_string(ldb) + ";\n  " + w.load_c + " " + regs(acc, w.cd_regs) + ", [%pc], " +
                          std::to_string(ldc) + ";\n  " + w.mma + " " + regs(acc + "d", w.cd_regs) + ", " + regs("a", w.a_regs) + ", " +
                          regs("b", w.b_regs) + ", " + regs(acc, w.cd_regs) + ";\n  " + w.store_d + " [%pd], " + regs(acc + "d", w.cd_regs) +
                          ", " + std::to_string(ldd) + R"(;
  ret;
}
)"));
  const u64 pa = fixture.alloc(0, a.size(), "a"), pb = fixture.alloc(0, b.size(), "b"), pc = fixture.alloc(0, c.size(), "c"),
            pd = fixture.alloc(0, M * ldd * acc_bytes, "d");
  fixture.write(pa, a);
  fixture.write(pb, b);
  fixture.write(pc, c);
  ASSERT_EQ(fixture.run("wmma", {1, 1, 1}, {32, 1, 1},
                        [&](int) { return std::vector<std::string>{u64_param(pa), u64_param(pb), u64_param(pc), u64_param(pd)}; }),
            "")
      << w.mma;
  const auto d = fixture.read<std::uint8_t>(pd, M * ldd * acc_bytes);
  for (int r = 0; r < M; ++r)
    for (int n = 0; n < N; ++n) {
      long want = C(r, n);
      for (int k = 0; k < K; ++k) want += static_cast<long>(A(r, k)) * B(k, n);
      std::uint32_t got = 0;
      for (int i = acc_bytes - 1; i >= 0; --i) got = got << 8 | d[(r * ldd + n) * acc_bytes + i];
      const std::uint32_t bits = w.f16_acc ? encode(kF16, want) : static_cast<std::uint32_t>(f32_bits(static_cast<float>(want)));
      EXPECT_EQ(hex(got), hex(bits)) << w.mma << ": D[" << r << "][" << n << "] should be " << want;
    }
}

TEST(PtxWmma, M16n16k16F16WithF32Accumulators) {
  expect_wmma({"wmma.load.a.sync.aligned.row.m16n16k16.global.f16", "wmma.load.b.sync.aligned.col.m16n16k16.global.f16",
               "wmma.load.c.sync.aligned.row.m16n16k16.global.f32", "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32",
               "wmma.store.d.sync.aligned.row.m16n16k16.global.f32", 8, 8, 8, 16, kF16, false, false});
}

TEST(PtxWmma, M16n16k16F16WithF16Accumulators) {
  expect_wmma({"wmma.load.a.sync.aligned.row.m16n16k16.global.f16", "wmma.load.b.sync.aligned.col.m16n16k16.global.f16",
               "wmma.load.c.sync.aligned.row.m16n16k16.global.f16", "wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16",
               "wmma.store.d.sync.aligned.row.m16n16k16.global.f16", 8, 8, 4, 16, kF16, false, true});
}

TEST(PtxWmma, M16n16k16Bf16) {
  expect_wmma({"wmma.load.a.sync.aligned.row.m16n16k16.global.bf16", "wmma.load.b.sync.aligned.col.m16n16k16.global.bf16",
               "wmma.load.c.sync.aligned.row.m16n16k16.global.f32", "wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32",
               "wmma.store.d.sync.aligned.row.m16n16k16.global.f32", 4, 4, 8, 16, kBF16, false, false});
}

TEST(PtxWmma, M16n16k8Tf32) {
  expect_wmma({"wmma.load.a.sync.aligned.row.m16n16k8.global.tf32", "wmma.load.b.sync.aligned.col.m16n16k8.global.tf32",
               "wmma.load.c.sync.aligned.row.m16n16k8.global.f32", "wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32",
               "wmma.store.d.sync.aligned.row.m16n16k8.global.f32", 4, 4, 8, 8, kF16, true, false});
}

}  // namespace
}  // namespace pkb::ptx_test
