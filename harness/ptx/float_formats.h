// Bit-exact conversions between the float formats PTX uses and the host's float and double:
// f16 (IEEE binary16), bf16, tf32, fp8 e4m3 and e5m2, with each PTX rounding mode, saturation to
// finite (.satfinite) and flush-to-zero. Widening is exact; narrowing rounds once from a double
// (exact for every f32 value, so an f32 narrowed here rounds as the hardware's cvt does).
#pragma once

#include <cstdint>

#include "harness/ptx/ptx_types.h"

namespace pkb::ptx {

/// The fast, exact paths of the two conversions every bf16 and fp16 kernel runs all the time.
float bf16_to_float(std::uint16_t bits);
float f16_to_float(std::uint16_t bits);
/// Round to nearest even from an f32 (one rounding), NaN to the GPU's canonical 0x7FFF.
std::uint16_t float_to_bf16_rn(float value);
std::uint16_t float_to_f16_rn(float value);

double f16_to_double(std::uint16_t bits);
double bf16_to_double(std::uint16_t bits);
double e4m3_to_double(std::uint8_t bits);
double e5m2_to_double(std::uint8_t bits);

/// Narrowing with rounding `round` (rn rz rm rp; rna rounds ties away from zero). `satfinite`
/// clamps overflow to the largest finite value (and NaN to NaN, or to max for e4m3 which has no
/// infinity) instead of infinity.
std::uint16_t double_to_f16(double value, Round round, bool satfinite = false);
std::uint16_t double_to_bf16(double value, Round round, bool satfinite = false);
std::uint8_t double_to_e4m3(double value, Round round, bool satfinite);
std::uint8_t double_to_e5m2(double value, Round round, bool satfinite);
/// f32 with the rounding of `round`, from a double (cvt.rz.f32.f64 and friends).
float double_to_f32(double value, Round round);
/// tf32: an f32 with 10 mantissa bits (cvt.rna.tf32.f32), returned as f32 bits.
std::uint32_t f32_to_tf32(float value, Round round);

/// Flush-to-zero: a subnormal becomes a zero of the same sign.
float flush_f32(float value);
double flush_f64(double value);

/// The value of a 16-bit half of a register in `type` (f16 or bf16), and back.
inline double half_to_double(Type type, std::uint16_t bits) {
  return type == Type::bf16 ? bf16_to_double(bits) : f16_to_double(bits);
}
inline std::uint16_t double_to_half(Type type, double value, Round round, bool satfinite = false) {
  return type == Type::bf16 ? double_to_bf16(value, round, satfinite)
                            : double_to_f16(value, round, satfinite);
}

}  // namespace pkb::ptx
