// The C++ parameter types of a candidate's kernels, as the compiler sees them (typedefs such as
// pkb::P resolved), so the plan check can tell a float* from a bf16 buffer. PTX alone cannot: every
// pointer there is a .u64. pkb-nvrtc asks NVRTC for them with a syntax-only second pass over the
// source plus one probe template per kernel; the demangled probe names spell the types.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace pkb::compile {

/// The probe template appended to the source, and the name expression for kernel `name`.
extern const char* const kSignatureProbeSource;
std::string signature_probe_expression(const std::string& kernel);

/// The parameter types in a demangled probe name:
/// "void pkb_signature_probe<void (float const*, long long)>()" -> {"float const*", "long long"}.
/// Empty when the text is not a probe name.
std::vector<std::string> probe_parameter_types(const std::string& demangled);

/// The parameter names of `extern "C" __global__ ... kernel(...)` as the source spells them, for
/// messages only ("" where a parameter has none); empty when the declaration is not found plainly.
std::vector<std::string> source_parameter_names(const std::string& source, const std::string& kernel);

}  // namespace pkb::compile
