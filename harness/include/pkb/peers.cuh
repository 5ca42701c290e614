// pkb device header, part 2: pkb::Peers<T>, the by-value struct behind the plan arg "peers(NAME)":
// rank r's copy of a symmetric buffer NAME, for every rank r, addressable from this GPU.
#pragma once

#include "pkb/context.cuh"

namespace pkb {

/// Plan arg "peers(NAME)". Layout fixed (the harness marshals it): 8 pointers, 64 bytes.
/// ptr[r] is rank r's copy of NAME (ptr[rank] is this rank's own); nullptr for r >= world.
/// Use Peers<const T> for an input: the layout is the same and writes become compile errors.
template <class T>
struct Peers {
  T* ptr[kMaxRanks];

  /// Rank r's copy. Selects among the 8 pointers instead of indexing, so a runtime r does not
  /// make the compiler copy the struct to local memory (ptr[r] does, unless the kernel parameter
  /// is declared `const __grid_constant__`).
  __device__ __forceinline__ T* operator[](int r) const {
    T* p = ptr[0];
#pragma unroll
    for (int i = 1; i < kMaxRanks; ++i) p = (r == i) ? ptr[i] : p;
    return p;
  }
};

static_assert(sizeof(Peers<float>) == 64,
              "pkb::Peers<T> must be 64 bytes: the harness marshals it");
static_assert(alignof(Peers<float>) == 8, "pkb::Peers<T> must be 8-byte aligned");
static_assert(sizeof(Peers<const __nv_bfloat16>) == 64, "pkb::Peers<const T> must match Peers<T>");

}  // namespace pkb
