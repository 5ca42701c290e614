// pkb device header, part 4: arithmetic on 16-byte packs (8 bf16, 8 half, 4 float) as load128 and
// store128 move them. Sums are formed in fp32 and rounded once (round to nearest even) on packing,
// which is what a reference that accumulates in fp32 does.
#pragma once

#include "pkb/context.cuh"

namespace pkb {

/// acc[i] += the i-th bf16 of the pack, i = 0..7.
__device__ __forceinline__ void accumulate_bf16x8(float (&acc)[8], uint4 pack) {
  const unsigned words[4] = {pack.x, pack.y, pack.z, pack.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    __nv_bfloat162 pair;
    memcpy(&pair, &words[i], 4);
    const float2 f = __bfloat1622float2(pair);
    acc[2 * i] += f.x;
    acc[2 * i + 1] += f.y;
  }
}

/// Eight floats rounded to bf16, packed for store128.
__device__ __forceinline__ uint4 pack_bf16x8(const float (&v)[8]) {
  unsigned words[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const __nv_bfloat162 pair = __floats2bfloat162_rn(v[2 * i], v[2 * i + 1]);
    memcpy(&words[i], &pair, 4);
  }
  return make_uint4(words[0], words[1], words[2], words[3]);
}

/// acc[i] += the i-th half of the pack, i = 0..7.
__device__ __forceinline__ void accumulate_f16x8(float (&acc)[8], uint4 pack) {
  const unsigned words[4] = {pack.x, pack.y, pack.z, pack.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    __half2 pair;
    memcpy(&pair, &words[i], 4);
    const float2 f = __half22float2(pair);
    acc[2 * i] += f.x;
    acc[2 * i + 1] += f.y;
  }
}

/// Eight floats rounded to half, packed for store128.
__device__ __forceinline__ uint4 pack_f16x8(const float (&v)[8]) {
  unsigned words[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const __half2 pair = __floats2half2_rn(v[2 * i], v[2 * i + 1]);
    memcpy(&words[i], &pair, 4);
  }
  return make_uint4(words[0], words[1], words[2], words[3]);
}

/// acc[i] += the i-th float of the pack, i = 0..3.
__device__ __forceinline__ void accumulate_f32x4(float (&acc)[4], uint4 pack) {
  acc[0] += __uint_as_float(pack.x);
  acc[1] += __uint_as_float(pack.y);
  acc[2] += __uint_as_float(pack.z);
  acc[3] += __uint_as_float(pack.w);
}

/// Four floats packed for store128.
__device__ __forceinline__ uint4 pack_f32x4(const float (&v)[4]) {
  return make_uint4(__float_as_uint(v[0]), __float_as_uint(v[1]), __float_as_uint(v[2]),
                    __float_as_uint(v[3]));
}

/// a + b on 8 bf16 lanes, each sum in fp32 rounded once.
__device__ __forceinline__ uint4 add_bf16x8(uint4 a, uint4 b) {
  float acc[8] = {};
  accumulate_bf16x8(acc, a);
  accumulate_bf16x8(acc, b);
  return pack_bf16x8(acc);
}

/// a + b on 8 half lanes, each sum in fp32 rounded once.
__device__ __forceinline__ uint4 add_f16x8(uint4 a, uint4 b) {
  float acc[8] = {};
  accumulate_f16x8(acc, a);
  accumulate_f16x8(acc, b);
  return pack_f16x8(acc);
}

/// a + b on 4 float lanes.
__device__ __forceinline__ float4 add_f32x4(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

}  // namespace pkb
