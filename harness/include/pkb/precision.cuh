// pkb device header, part 6: the run precision P of this compile. The harness passes
// -DPKB_DTYPE=PKB_DTYPE_BF16 (or _FP16, _FP32), so one source serves every dtype a problem lists:
// write pkb::P where the prompt says P, and convert with to_float / from_float<T>. The plan check
// compares every pointer parameter's element type with the buffer it receives.
#pragma once

#include "pkb/vector.cuh"

#define PKB_DTYPE_BF16 1
#define PKB_DTYPE_FP16 2
#define PKB_DTYPE_FP32 3
#ifndef PKB_DTYPE
#define PKB_DTYPE PKB_DTYPE_BF16  // only for a compile outside the harness
#endif

namespace pkb {

#if PKB_DTYPE == PKB_DTYPE_BF16
using P = __nv_bfloat16;
#elif PKB_DTYPE == PKB_DTYPE_FP16
using P = __half;
#elif PKB_DTYPE == PKB_DTYPE_FP32
using P = float;
#else
#error "PKB_DTYPE must be PKB_DTYPE_BF16, PKB_DTYPE_FP16 or PKB_DTYPE_FP32"
#endif

/// Elements of P in one 16-byte pack (load128 / store128): 8 for bf16 and fp16, 4 for fp32.
enum : int { kPackP = 16 / static_cast<int>(sizeof(P)) };

__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(float v) { return v; }

/// v rounded to T (round to nearest even), as the reference's dtype conversion does.
template <class T>
__device__ T from_float(float v);
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }
template <>
__device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ float from_float<float>(float v) { return v; }

/// acc[i] += the i-th P of a 16-byte pack, i = 0..kPackP-1 (bf16x8, f16x8 or f32x4).
__device__ __forceinline__ void accumulate_pack(float (&acc)[kPackP], uint4 pack) {
#if PKB_DTYPE == PKB_DTYPE_BF16
  accumulate_bf16x8(acc, pack);
#elif PKB_DTYPE == PKB_DTYPE_FP16
  accumulate_f16x8(acc, pack);
#else
  accumulate_f32x4(acc, pack);
#endif
}

/// kPackP floats rounded to P and packed for store128.
__device__ __forceinline__ uint4 pack_floats(const float (&v)[kPackP]) {
#if PKB_DTYPE == PKB_DTYPE_BF16
  return pack_bf16x8(v);
#elif PKB_DTYPE == PKB_DTYPE_FP16
  return pack_f16x8(v);
#else
  return pack_f32x4(v);
#endif
}

}  // namespace pkb
