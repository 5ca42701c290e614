// Bulk copies and recursion as NVRTC writes them (every candidate is compiled so): libcu++'s
// cuda::memcpy_async through a cuda::barrier (cp.async.bulk, then expect_tx, arrive with a count
// and try_wait on the token) and its bulk store (fence.proxy.async, cp.async.bulk.global.shared,
// commit_group, wait_group.read); a recursive device function passing a pointer to its local
// array to the call below it.
#include <gtest/gtest.h>

#include "tests/ptx/nvrtc_ptx.h"
#include "tests/ptx/ptx_fixture.h"

namespace pkb::ptx_test {
namespace {

constexpr const char* kSource = R"(
#include <cuda/barrier>
#include <cuda/std/utility>
using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

// out[i] = 2 in[i] + 1 for a block of 256 threads: in -> shared by a bulk copy, back by a bulk store.
extern "C" __global__ void bulk_round_trip(const int* in, int* out) {
  __shared__ alignas(16) int sm[256];
  #pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0) cuda::memcpy_async(sm, in, cuda::aligned_size_t<16>(sizeof(sm)), bar);
  block_barrier::arrival_token token = bar.arrive();
  bar.wait(cuda::std::move(token));
  sm[threadIdx.x] = 2 * sm[threadIdx.x] + 1;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_shared_to_global(out, sm, sizeof(sm));
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

__device__ int tree(int depth, const int* above) {
  int mine[4];
  for (int i = 0; i < 4; ++i) mine[i] = depth * 4 + i + above[i];
  if (depth == 0) return mine[0];
  return tree(depth - 1, mine) + mine[depth & 3];
}

extern "C" __global__ void recursive(const int* in, long long* out) {
  const int seed[4] = {in[0], in[1], in[2], in[3]};
  out[threadIdx.x] = tree(threadIdx.x % 9, seed);
}
)";

const std::string& compiled_ptx() {
  static const std::string ptx = nvrtc_ptx(kSource, "the kernels");
  return ptx;
}

int host_tree(int depth, const int* above) {
  int mine[4];
  for (int i = 0; i < 4; ++i) mine[i] = depth * 4 + i + above[i];
  if (depth == 0) return mine[0];
  return host_tree(depth - 1, mine) + mine[depth & 3];
}

TEST(PtxBulkNvrtc, MemcpyAsyncThroughABarrierAndABulkStoreRoundTrip) {
  PtxFixture fixture;
  fixture.load(compiled_ptx());
  const std::uint64_t in = fixture.alloc(0, 1024, "in"), out = fixture.alloc(0, 1024, "out");
  std::vector<std::int32_t> values(256);
  for (int i = 0; i < 256; ++i) values[i] = i * 5 - 300;
  fixture.write(in, values);
  const std::string fault = fixture.run("bulk_round_trip", {1, 1, 1}, {256, 1, 1}, [&](int) {
    return std::vector<std::string>{u64_param(in), u64_param(out)};
  });
  ASSERT_EQ(fault, "");
  const auto got = fixture.read<std::int32_t>(out, 256);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(got[i], 2 * values[i] + 1) << i;
}

TEST(PtxBulkNvrtc, RecursionWithPointersIntoTheCallersLocals) {
  PtxFixture fixture;
  fixture.load(compiled_ptx());
  const std::uint64_t in = fixture.alloc(0, 16, "in"), out = fixture.alloc(0, 256, "out");
  const std::vector<std::int32_t> seed = {3, -1, 4, 10};
  fixture.write(in, seed);
  const std::string fault = fixture.run("recursive", {1, 1, 1}, {32, 1, 1}, [&](int) {
    return std::vector<std::string>{u64_param(in), u64_param(out)};
  });
  ASSERT_EQ(fault, "");
  const auto got = fixture.read<std::int64_t>(out, 32);
  for (int t = 0; t < 32; ++t) EXPECT_EQ(got[t], host_tree(t % 9, seed.data())) << t;
}

}  // namespace
}  // namespace pkb::ptx_test
