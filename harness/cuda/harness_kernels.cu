// The harness's own device code, compiled once per worker with NVRTC for the GPU it runs on and
// embedded in pkb-worker at build time (harness_kernels.cpp). It never sees candidate data.
//   pkb_harness_barrier: all ranks' streams meet (timing's per-iteration start gate, plan barrier
//     steps). Launch <<<1, 32>>>. Rank r's pad holds flags[slot * 8 + src]; a rank arriving at
//     `epoch` stores epoch into flags[slot * 8 + rank] on every peer's pad, then waits until all of
//     its own flags for this slot reach epoch. Epochs count up on the host per (rank, slot): the
//     harness never replays graphs, so a kernel argument is safe here (unlike pkb.cuh's barrier).
//     No device-side timeout: if a peer never arrives (its candidate kernel hangs) the host's
//     deadline reports the hang; a trap here would misname it a fault.
//   pkb_harness_delay: spins for `ns` nanoseconds on %globaltimer (launch skew in trials).
//   pkb_harness_reduce: dst[i] = srcs[0][i] op srcs[1][i] op ... for i < count (the reductions of
//     emulated collectives, harness/device/collective_moves.h). Any grid (grid-stride). Adds in
//     double (floating types) or 64-bit integers, in rank order; `type` and `op` codes are those
//     of harness_kernels.h. No headers: fp16 and bf16 convert through PTX cvt.

struct PkbHarnessPads {
  unsigned int* pad[8];
};

__device__ __forceinline__ void pkb_store_release_sys(unsigned int* address, unsigned int value) {
  asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(address), "r"(value) : "memory");
}

__device__ __forceinline__ unsigned int pkb_load_acquire_sys(const unsigned int* address) {
  unsigned int value;
  asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(value) : "l"(address) : "memory");
  return value;
}

__device__ __forceinline__ unsigned long long pkb_globaltimer() {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

extern "C" __global__ void pkb_harness_barrier(PkbHarnessPads pads, int rank, int world, int slot,
                                               unsigned int epoch) {
  const int peer = static_cast<int>(threadIdx.x);
  if (peer < world) {
    // Work issued before this kernel on the stream has completed; make it visible system-wide
    // before peers can see the arrival.
    __threadfence_system();
    pkb_store_release_sys(pads.pad[peer] + slot * 8 + rank, epoch);
    const unsigned int* flag = pads.pad[rank] + slot * 8 + peer;
    // Signed difference: correct across the 2^32 wrap of the epoch counter.
    while (static_cast<int>(pkb_load_acquire_sys(flag) - epoch) < 0) {
    }
  }
  __syncthreads();
}

extern "C" __global__ void pkb_harness_delay(unsigned long long ns) {
  const unsigned long long start = pkb_globaltimer();
  while (pkb_globaltimer() - start < ns) {
  }
}

struct PkbReduceSources {
  const void* p[8];
};

__device__ __forceinline__ double pkb_load_floating(const void* base, unsigned long long i, int type) {
  if (type == 0) {  // fp16
    const unsigned short bits = static_cast<const unsigned short*>(base)[i];
    float value;
    asm("cvt.f32.f16 %0, %1;" : "=f"(value) : "h"(bits));
    return value;
  }
  if (type == 1)  // bf16: the high half of an fp32
    return __uint_as_float(static_cast<unsigned int>(static_cast<const unsigned short*>(base)[i]) << 16);
  if (type == 2) return static_cast<const float*>(base)[i];
  return static_cast<const double*>(base)[i];
}

__device__ __forceinline__ void pkb_store_floating(void* base, unsigned long long i, int type, double value) {
  const float narrow = static_cast<float>(value);
  if (type == 0) {
    unsigned short bits;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(bits) : "f"(narrow));
    static_cast<unsigned short*>(base)[i] = bits;
  } else if (type == 1) {
    unsigned short bits;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(bits) : "f"(narrow));
    static_cast<unsigned short*>(base)[i] = bits;
  } else if (type == 2) {
    static_cast<float*>(base)[i] = narrow;
  } else {
    static_cast<double*>(base)[i] = value;
  }
}

__device__ __forceinline__ long long pkb_load_integer(const void* base, unsigned long long i, int type) {
  if (type == 4) return static_cast<const signed char*>(base)[i];
  if (type == 5) return static_cast<const unsigned char*>(base)[i];
  if (type == 6) return static_cast<const int*>(base)[i];
  return static_cast<const long long*>(base)[i];
}

__device__ __forceinline__ void pkb_store_integer(void* base, unsigned long long i, int type, long long value) {
  if (type == 4) static_cast<signed char*>(base)[i] = static_cast<signed char>(value);
  else if (type == 5) static_cast<unsigned char*>(base)[i] = static_cast<unsigned char>(value);
  else if (type == 6) static_cast<int*>(base)[i] = static_cast<int>(value);
  else static_cast<long long*>(base)[i] = value;
}

template <typename T>
__device__ __forceinline__ T pkb_combine(T a, T b, int op) {
  switch (op) {
    case 1: return a * b;
    case 2: return a > b ? a : b;
    case 3: return a < b ? a : b;
    default: return a + b;  // sum, and avg before its division
  }
}

extern "C" __global__ void pkb_harness_reduce(PkbReduceSources srcs, int n, void* dst,
                                              unsigned long long count, int type, int op) {
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < count; i += stride) {
    if (type <= 3) {
      double acc = pkb_load_floating(srcs.p[0], i, type);
      for (int k = 1; k < n; ++k) acc = pkb_combine(acc, pkb_load_floating(srcs.p[k], i, type), op);
      if (op == 4) acc /= n;
      pkb_store_floating(dst, i, type, acc);
    } else {
      long long acc = pkb_load_integer(srcs.p[0], i, type);
      for (int k = 1; k < n; ++k) acc = pkb_combine(acc, pkb_load_integer(srcs.p[k], i, type), op);
      if (op == 4) acc /= n;
      pkb_store_integer(dst, i, type, acc);
    }
  }
}
