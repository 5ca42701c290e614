// What the harness writes into a candidate's outputs before every call (docs/ARCHITECTURE.md, "Evaluation"): NaN for
// floating types, so an output the candidate never writes fails the NaN rule of the check; for
// integers a byte pattern, and for bool all-true then all-false on alternating trials, so no
// fixed pattern can pass for a correct answer on every trial. Pure: no CUDA, unit-tested.
#pragma once

#include <cstdint>

#include "src/common/dtype.h"

namespace pkb::harness {

/// A value repeated over a buffer: `unit_bytes` (1, 2 or 4, so cuMemsetD8/D16/D32 can write it)
/// of `value`, little-endian. 8-byte types repeat a 4-byte half that is NaN in both halves.
struct FillPattern {
  int unit_bytes = 1;
  std::uint32_t value = 0;
};

/// The poison of `dtype` for variant 0 or 1 (the trial's parity).
FillPattern poison_pattern(DType dtype, int variant);

/// A random byte pattern for plan buffers ("not zeroed: garbage"), from a seed: one 32-bit word.
std::uint32_t garbage_word(std::uint64_t seed);

}  // namespace pkb::harness
