// Poison patterns (see poison.h).
#include "harness/executor/poison.h"

namespace pkb::harness {

FillPattern poison_pattern(DType dtype, int variant) {
  const bool negative = (variant & 1) != 0;  // the second variant flips the NaN's sign bit
  switch (dtype) {
    case DType::bf16: return {2, negative ? 0xFFA5u : 0x7FA5u};
    case DType::fp16: return {2, negative ? 0xFE5Au : 0x7E5Au};
    case DType::fp32: return {4, negative ? 0xFFA5A5A5u : 0x7FA5A5A5u};
    case DType::fp64: return {4, negative ? 0xFFF8FFF8u : 0x7FF87FF8u};
    case DType::fp8e4m3:
    case DType::fp8e5m2: return {1, negative ? 0xFFu : 0x7Fu};  // NaN in both fp8 formats
    case DType::boolean: return {1, negative ? 0x00u : 0x01u};
    case DType::int8:
    case DType::uint8:
    case DType::int16:
    case DType::int32:
    case DType::int64: return {1, negative ? 0x5Au : 0xA5u};
  }
  return {1, 0xA5u};
}

std::uint32_t garbage_word(std::uint64_t seed) {
  // splitmix64's finalizer: a different, well-mixed word for every seed.
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<std::uint32_t>(z ^ (z >> 31));
}

}  // namespace pkb::harness
