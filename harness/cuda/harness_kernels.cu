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
