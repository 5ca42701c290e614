// fp8 e4m3fn codes from and to fp32, exactly, with integer arithmetic on the fp32 bit pattern so
// the result does not depend on the floating-point environment.
#include "reference/fp8.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "src/common/error.h"

namespace pkb::ref {

std::uint8_t e4m3_from_float(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const auto sign = static_cast<std::uint8_t>((bits >> 24) & 0x80);
  const std::uint32_t biased = (bits >> 23) & 0xff;
  const std::uint32_t fraction = bits & 0x7fffff;
  if (biased == 0xff && fraction != 0) return sign | 0x7f;  // NaN
  // Zero and fp32 subnormals (below 2^-126) are far below half the smallest e4m3 step (2^-10).
  if (biased == 0) return sign;

  // value = significand * 2^(exponent - 23). The e4m3 step is 2^(exponent - 3) for a normal
  // result; below 2^-6 (the subnormal range) it stays 2^-9, so fewer significand bits survive.
  const int exponent = static_cast<int>(biased) - 127;
  const int step_exponent = std::max(exponent, -6);
  const int shift = 20 + (step_exponent - exponent);  // significand bits below one step
  if (shift >= 32) return sign;
  const std::uint64_t significand = (std::uint64_t{1} << 23) | fraction;
  std::uint64_t steps = significand >> shift;
  const std::uint64_t rest = significand & ((std::uint64_t{1} << shift) - 1);
  const std::uint64_t half = std::uint64_t{1} << (shift - 1);
  if (rest > half || (rest == half && (steps & 1) != 0)) ++steps;  // ties to even

  // steps is 8..16 for a normal result (16 carries into the next binade) and 0..8 below 2^-6,
  // so exponent field and mantissa come out of one sum. Codes past 0x7e (448) saturate, which
  // also covers infinities (exponent 128).
  const std::int64_t code = (step_exponent + 6) * 8 + static_cast<std::int64_t>(steps);
  return sign | static_cast<std::uint8_t>(std::min<std::int64_t>(code, 0x7e));
}

float e4m3_to_float(std::uint8_t code) {
  const int exponent = (code >> 3) & 0xf;
  const int mantissa = code & 0x7;
  float magnitude = 0;
  if (exponent == 0xf && mantissa == 0x7)
    magnitude = std::numeric_limits<float>::quiet_NaN();
  else if (exponent == 0)
    magnitude = std::ldexp(static_cast<float>(mantissa), -9);
  else
    magnitude = std::ldexp(static_cast<float>(8 + mantissa), exponent - 10);
  return (code & 0x80) != 0 ? -magnitude : magnitude;
}

at::Tensor to_e4m3(const at::Tensor& values) {
  if (!at::isFloatingType(values.scalar_type()))
    throw Error(std::string("to_e4m3: expected a floating tensor, got ") +
                c10::toString(values.scalar_type()));
  const at::Tensor floats = values.to(at::kCPU).to(at::kFloat).contiguous();
  at::Tensor codes = at::empty(floats.sizes(), floats.options().dtype(at::kByte));
  const float* in = floats.data_ptr<float>();
  std::uint8_t* out = codes.data_ptr<std::uint8_t>();
  for (std::int64_t i = 0; i < floats.numel(); ++i) out[i] = e4m3_from_float(in[i]);
  return codes.to(values.device());
}

at::Tensor from_e4m3(const at::Tensor& codes) {
  if (codes.scalar_type() != at::kByte)
    throw Error(std::string("from_e4m3: expected a Byte tensor of codes, got ") +
                c10::toString(codes.scalar_type()));
  at::Tensor table = at::empty({256}, at::kFloat);
  float* value = table.data_ptr<float>();
  for (int code = 0; code < 256; ++code)
    value[code] = e4m3_to_float(static_cast<std::uint8_t>(code));
  return table.to(codes.device()).index({codes.to(at::kLong)});
}

}  // namespace pkb::ref
