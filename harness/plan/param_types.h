// What a kernel parameter's C++ type (compile::KernelParam::source_type, "float const*") accepts:
// a pointer, a Peers<T>, the SignalPad, the Context or a plain value, and for the first two the
// element type, checked against the buffer's dtype. PTX sizes alone let an i64 fill a float* or a
// bf16 buffer fill a float*, which would run and silently read garbage.
#pragma once

#include <optional>
#include <string>

#include "src/common/dtype.h"

namespace pkb::plan {

enum class ParamShape { unknown, pointer, peers, signal_pad, context, value };

struct ParamType {
  ParamShape shape = ParamShape::unknown;
  std::string element;  // pointer / peers: the pointee without const or volatile ("float")
};

/// "" (unknown) gives ParamShape::unknown: nothing is checked.
ParamType classify_param(const std::string& source_type);

/// Why a pointer to `element` cannot carry a buffer of `dtype` ("holds bf16, not fp32 (float)"),
/// or nothing when it can. Floating
/// elements (bf16, half, float, double, fp8) must equal the dtype; integer elements must have its
/// size; void, char types, vector types and structs are raw access and fit any buffer.
std::optional<std::string> element_mismatch(const std::string& element, DType dtype);

}  // namespace pkb::plan
