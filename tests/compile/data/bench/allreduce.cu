// A small one-shot bf16 all-reduce over peer pointers with a flag barrier: the source that
// scripts/bench-compile.sh compiles through every path (NVRTC via compile_cuda, nvcc -cubin, a torch
// C++ extension build). Self-contained (no pkb.cuh types) so that nvcc builds the same text; under
// compile_cuda pkb.cuh is still pre-included, as for every candidate.
#include <cuda_bf16.h>

struct BenchPeers {
  __nv_bfloat16* ptr[8];
};
struct BenchFlags {
  unsigned int* flag[8];
};

__device__ __forceinline__ unsigned bench_ld_acquire(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void bench_st_release(unsigned* p, unsigned v) {
  asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// out = sum over ranks of in[r]; every block signals every rank, then reduces its slice.
extern "C" __global__ void all_reduce_bf16(BenchPeers in, BenchFlags flags, __nv_bfloat16* out,
                                           int rank, int world, long long count, unsigned epoch) {
  if (threadIdx.x < world)
    bench_st_release(flags.flag[threadIdx.x] + blockIdx.x * 8 + rank, epoch);
  if (threadIdx.x < world)
    while (bench_ld_acquire(flags.flag[rank] + blockIdx.x * 8 + threadIdx.x) < epoch) {
    }
  __syncthreads();
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
       i += (long long)gridDim.x * blockDim.x) {
    float acc = 0.f;
#pragma unroll 8
    for (int r = 0; r < 8; ++r)
      if (r < world) acc += __bfloat162float(in.ptr[r][i]);
    out[i] = __float2bfloat16(acc);
  }
}
