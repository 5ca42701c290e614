// pkb device header, part 6: NVSwitch multicast (NVLS) access through the address of plan arg
// "multicast(NAME)". Declared only when the harness compiles with PKB_HAS_MULTICAST=1, so code
// that uses it without checking fails to compile on machines without multicast.
//   ld_reduce: one load returns the sum over every rank's copy, reduced in the switch.
//   st:        one store writes every rank's copy.
//   red:       one reduction adds into every rank's copy.
// All are .relaxed.sys: order them with barrier_block / st_release_sys like any peer access. Memory
// reached both here and through its unicast address (a copy step, peers(), a plain store) also
// needs fence_proxy_alias() between the two kinds of access (the PTX ISA's rule for virtual
// aliases); barrier_block and barrier_grid include it.
// mc must be 16-byte aligned and point into a multicast buffer.
#pragma once

#include "pkb/context.cuh"

#if PKB_HAS_MULTICAST

namespace pkb {

/// Sum over ranks of 8 bf16 at mc, accumulated in fp32 by the switch, rounded once to bf16.
__device__ __forceinline__ uint4 multimem_ld_reduce_add_bf16x8(const void* mc) {
  uint4 v;
  asm volatile("multimem.ld_reduce.relaxed.sys.global.add.acc::f32.v4.bf16x2 {%0,%1,%2,%3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(mc)
               : "memory");
  return v;
}

/// Sum over ranks of 8 half at mc, accumulated in fp32 by the switch, rounded once to half.
__device__ __forceinline__ uint4 multimem_ld_reduce_add_f16x8(const void* mc) {
  uint4 v;
  asm volatile("multimem.ld_reduce.relaxed.sys.global.add.acc::f32.v4.f16x2 {%0,%1,%2,%3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(mc)
               : "memory");
  return v;
}

/// Sum over ranks of 4 float at mc.
__device__ __forceinline__ float4 multimem_ld_reduce_add_f32x4(const void* mc) {
  float4 v;
  asm volatile("multimem.ld_reduce.relaxed.sys.global.add.v4.f32 {%0,%1,%2,%3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(mc)
               : "memory");
  return v;
}

/// Writes 16 bytes (any element type) to every rank's copy at mc.
__device__ __forceinline__ void multimem_st128(void* mc, uint4 v) {
  asm volatile("multimem.st.relaxed.sys.global.v4.f32 [%0], {%1,%2,%3,%4};" ::"l"(mc),
               "f"(__uint_as_float(v.x)), "f"(__uint_as_float(v.y)), "f"(__uint_as_float(v.z)),
               "f"(__uint_as_float(v.w))
               : "memory");
}

/// Adds 8 bf16 lanes into every rank's copy at mc (rounded to bf16 per add).
__device__ __forceinline__ void multimem_red_add_bf16x8(void* mc, uint4 v) {
  asm volatile("multimem.red.relaxed.sys.global.add.v4.bf16x2 [%0], {%1,%2,%3,%4};" ::"l"(mc),
               "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}

/// Adds 4 float lanes into every rank's copy at mc.
__device__ __forceinline__ void multimem_red_add_f32x4(void* mc, float4 v) {
  asm volatile("multimem.red.relaxed.sys.global.add.v4.f32 [%0], {%1,%2,%3,%4};" ::"l"(mc),
               "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w)
               : "memory");
}

}  // namespace pkb

#endif  // PKB_HAS_MULTICAST
