// Element types pkb names in problem.json, on the command line and in dumps, with one name table.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace pkb {

/// Enumerators equal their serialized names (problem.json, --dtype, results).
/// fp8 tensors are stored as raw bytes (uint8) in libtorch so that problems build on torch 1.13,
/// which has no float8 dtype; dumps still label them F8_E4M3 / F8_E5M2.
enum class DType { bf16, fp16, fp32, fp64, int8, uint8, int16, int32, int64, boolean, fp8e4m3, fp8e5m2 };

std::string_view dtype_name(DType dtype);  // "bool" for DType::boolean
std::optional<DType> parse_dtype(std::string_view name);
std::string dtype_names_list();  // "bf16, fp16, ..." for error messages
std::size_t dtype_size(DType dtype);
bool is_floating(DType dtype);  // fp8 counts as floating
std::string_view safetensors_dtype(DType dtype);  // "BF16", "F32", "I64", ...
std::optional<DType> parse_safetensors_dtype(std::string_view name);


/// The run precisions a problem can be run in (the "P" of problem.json).
bool is_run_precision(DType dtype);

}  // namespace pkb
