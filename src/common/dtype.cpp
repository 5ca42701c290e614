// The one name table for DType.
#include "src/common/dtype.h"

#include <array>

namespace pkb {
namespace {

struct DTypeInfo {
  DType dtype;
  std::string_view name;
  std::string_view safetensors;
  std::size_t size;
  bool floating;
};

constexpr std::array<DTypeInfo, 12> kTable = {{
    {DType::bf16, "bf16", "BF16", 2, true},
    {DType::fp16, "fp16", "F16", 2, true},
    {DType::fp32, "fp32", "F32", 4, true},
    {DType::fp64, "fp64", "F64", 8, true},
    {DType::int8, "int8", "I8", 1, false},
    {DType::uint8, "uint8", "U8", 1, false},
    {DType::int16, "int16", "I16", 2, false},
    {DType::int32, "int32", "I32", 4, false},
    {DType::int64, "int64", "I64", 8, false},
    {DType::boolean, "bool", "BOOL", 1, false},
    {DType::fp8e4m3, "fp8e4m3", "F8_E4M3", 1, true},
    {DType::fp8e5m2, "fp8e5m2", "F8_E5M2", 1, true},
}};

const DTypeInfo& info(DType dtype) {
  for (const auto& entry : kTable)
    if (entry.dtype == dtype) return entry;
  return kTable[0];  // unreachable: the table covers every enumerator
}

}  // namespace

std::string_view dtype_name(DType dtype) { return info(dtype).name; }
std::string_view safetensors_dtype(DType dtype) { return info(dtype).safetensors; }
std::size_t dtype_size(DType dtype) { return info(dtype).size; }
bool is_floating(DType dtype) { return info(dtype).floating; }

std::optional<DType> parse_dtype(std::string_view name) {
  for (const auto& entry : kTable)
    if (entry.name == name) return entry.dtype;
  return std::nullopt;
}

std::optional<DType> parse_safetensors_dtype(std::string_view name) {
  for (const auto& entry : kTable)
    if (entry.safetensors == name) return entry.dtype;
  return std::nullopt;
}

std::string dtype_names_list() {
  std::string out;
  for (const auto& entry : kTable) {
    if (!out.empty()) out += ", ";
    out += entry.name;
  }
  return out;
}

bool is_run_precision(DType dtype) {
  return dtype == DType::bf16 || dtype == DType::fp16 || dtype == DType::fp32;
}

}  // namespace pkb
