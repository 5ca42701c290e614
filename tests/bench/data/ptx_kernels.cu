// The kernels of ptx_bench.cpp: what the simulated node runs most (peer loads, shared-memory
// tiles, warp shuffles), compiled by NVRTC with pkb.cuh as every candidate is.

// y = x_0 + ... + x_{W-1} over peer pointers, 16 bytes at a time (the worked example's loop).
extern "C" __global__ void peer_allreduce(pkb::Peers<const __nv_bfloat16> x, __nv_bfloat16* y,
                                          long long n, int world) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x; p * 8 < n; p += stride) {
    float acc[8] = {};
    for (int r = 0; r < world; ++r) pkb::accumulate_bf16x8(acc, pkb::load128(x[r] + p * 8));
    pkb::store128(y + p * 8, pkb::pack_bf16x8(acc));
  }
}

// C = A * B, n x n fp32, 16 x 16 tiles through shared memory.
extern "C" __global__ void tiled_matmul(const float* a, const float* b, float* c, int n) {
  __shared__ float ta[16][16], tb[16][16];
  const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.f;
  for (int k0 = 0; k0 < n; k0 += 16) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = acc;
}

// sum += x[i] for all i: a grid-stride loop, a butterfly over the warp, one atomic per warp.
extern "C" __global__ void warp_reduce(const float* x, float* sum, long long n) {
  float v = 0.f;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x)
    v += x[i];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(sum, v);
}
