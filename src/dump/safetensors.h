// Reading and writing the safetensors format: an 8-byte little-endian header length, a JSON
// header {name: {dtype, shape, data_offsets}}, then the raw little-endian data.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "src/common/dtype.h"

namespace pkb::dump {

struct RawTensor {
  std::string name;
  DType dtype = DType::fp32;
  std::vector<std::int64_t> shape;
  std::vector<unsigned char> bytes;  // little-endian, row-major
};

/// Writes `tensors` in their order. Throws pkb::Error naming the path on I/O failure.
void write_safetensors(const std::filesystem::path& path, const std::vector<RawTensor>& tensors,
                       const std::map<std::string, std::string>& metadata = {});

/// Reads every tensor, in data order. Throws pkb::InputError naming the path and what is wrong.
std::vector<RawTensor> read_safetensors(const std::filesystem::path& path);

}  // namespace pkb::dump
