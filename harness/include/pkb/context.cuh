// pkb device header, part 1: the build-time facts of a run (macros), the integer and float types
// every part uses, and pkb::Context, the by-value struct behind the plan arg "ctx".
// Device-only: compiles under NVRTC with no host code and no C++ standard library headers.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

// NVRTC has no <cstdint>: libcu++ defines ::uint32_t etc. itself when the compiler is NVRTC.
// (Not <cuda/std/cstddef>: it adds module globals; size_t and ptrdiff_t are NVRTC builtins.)
#include <cuda/std/cstdint>

// INFINITY, NAN, HUGE_VALF: nvcc offers them everywhere, NVRTC nowhere (pkb's math.h stand-in).
#include <math.h>

// The harness passes all three with -D; these defaults only serve a compile outside the harness.
#ifndef PKB_WORLD
#define PKB_WORLD 0  // W of this run; 0 = unknown at compile time
#endif
#ifndef PKB_HAS_MULTICAST
#define PKB_HAS_MULTICAST 0  // 1 when NVSwitch multicast (multimem.*) is usable on this machine
#endif
#ifndef PKB_SPIN_TIMEOUT_NS
#define PKB_SPIN_TIMEOUT_NS 10000000000ULL  // a spin wait longer than this traps (10 s)
#endif

namespace pkb {

// Constants are enumerators, not constexpr variables: under -default-device a namespace-scope
// variable becomes a __device__ global in every module, which would look like candidate state.
enum : int {
  kMaxRanks = 8,         // the most ranks a run has; Peers<T> and SignalPad hold this many pointers
  kContextEmulated = 1,  // Context::flags bit: several ranks share one GPU (spin with care)
};

/// Plan arg "ctx". Layout fixed (the harness marshals it): 4 ints, 16 bytes.
struct Context {
  int rank;     // this rank, 0..world-1
  int world;    // W
  int num_sms;  // SMs this rank may use (a partition of the GPU when emulated)
  int flags;    // kContextEmulated, ...

  /// True when several ranks share one GPU.
  __device__ bool emulated() const { return (flags & kContextEmulated) != 0; }
};

static_assert(sizeof(Context) == 16, "pkb::Context must be 16 bytes: the harness marshals it");
static_assert(alignof(Context) == 4,
              "pkb::Context must be 4-byte aligned: the harness marshals it");

/// The linear index of this thread in its block (x fastest).
__device__ __forceinline__ unsigned thread_rank_in_block() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

/// The number of threads in this block.
__device__ __forceinline__ unsigned threads_in_block() {
  return blockDim.x * blockDim.y * blockDim.z;
}

/// The linear index of this block in the grid (x fastest).
__device__ __forceinline__ unsigned block_rank_in_grid() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

/// The number of blocks in the grid.
__device__ __forceinline__ unsigned blocks_in_grid() { return gridDim.x * gridDim.y * gridDim.z; }

}  // namespace pkb
