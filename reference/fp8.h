// fp8 e4m3fn (sign, 4 exponent bits with bias 7, 3 mantissa bits; no infinities; S.1111.111 is
// NaN; largest finite ±448) held as raw bytes in uint8 tensors: libtorch 1.13 has no float8 type.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>

namespace pkb::ref {

/// Round to nearest, ties to even. Finite values and infinities beyond ±448 saturate to ±448,
/// as CUDA's cvt.rn.satfinite.e4m3 does; NaN becomes 0x7f with the input's sign bit.
std::uint8_t e4m3_from_float(float value);
/// Exact: every code is a float. 0x7f and 0xff decode to NaN.
float e4m3_to_float(std::uint8_t code);

/// e4m3_from_float on every element: floating `values` (rounded to fp32 first) to uint8 codes of
/// the same shape, on the same device.
at::Tensor to_e4m3(const at::Tensor& values);
/// e4m3_to_float on every element: uint8 codes to an fp32 tensor of the same shape and device.
at::Tensor from_e4m3(const at::Tensor& codes);

}  // namespace pkb::ref
