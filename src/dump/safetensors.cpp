// The safetensors codec. pkb only runs on little-endian hosts (x86-64, aarch64), so tensor bytes
// are written as they sit in memory; the header length is encoded byte by byte regardless.
#include "src/dump/safetensors.h"

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "src/common/error.h"

namespace pkb::dump {
namespace {

std::int64_t element_count(const std::vector<std::int64_t>& shape) {
  std::int64_t count = 1;
  for (std::int64_t size : shape) count *= size;
  return count;
}

}  // namespace

void write_safetensors(const std::filesystem::path& path, const std::vector<RawTensor>& tensors,
                       const std::map<std::string, std::string>& metadata) {
  nlohmann::ordered_json header = nlohmann::ordered_json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  std::uint64_t offset = 0;
  for (const auto& tensor : tensors) {
    PKB_ASSERT(static_cast<std::int64_t>(tensor.bytes.size()) ==
                   element_count(tensor.shape) * static_cast<std::int64_t>(dtype_size(tensor.dtype)),
               "safetensors: byte count does not match shape for " + tensor.name);
    header[tensor.name] = {{"dtype", std::string(safetensors_dtype(tensor.dtype))},
                           {"shape", tensor.shape},
                           {"data_offsets", {offset, offset + tensor.bytes.size()}}};
    offset += tensor.bytes.size();
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // the format allows padding; 8-aligns the data
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error(path.string() + ": cannot open for writing");
  unsigned char length[8];
  for (int byte = 0; byte < 8; ++byte) length[byte] = static_cast<unsigned char>(text.size() >> (8 * byte));
  out.write(reinterpret_cast<const char*>(length), 8);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  for (const auto& tensor : tensors)
    out.write(reinterpret_cast<const char*>(tensor.bytes.data()),
              static_cast<std::streamsize>(tensor.bytes.size()));
  out.flush();
  if (!out) throw Error(path.string() + ": write failed");
}

std::vector<RawTensor> read_safetensors(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot read the file");
  std::vector<unsigned char> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto fail = [&](const std::string& what) { throw InputError(path.string() + ": " + what); };
  if (file.size() < 8) fail("shorter than the 8-byte header length");
  std::uint64_t length = 0;
  for (int byte = 7; byte >= 0; --byte) length = (length << 8) | file[byte];
  if (length > file.size() - 8) fail("header length " + std::to_string(length) + " exceeds the file");
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(file.begin() + 8, file.begin() + 8 + static_cast<std::ptrdiff_t>(length));
  } catch (const nlohmann::json::exception& e) {
    fail(std::string("header is not valid JSON: ") + e.what());
  }
  const std::size_t data_start = 8 + length;
  std::vector<std::pair<std::uint64_t, RawTensor>> found;  // (data offset, tensor)
  for (const auto& [name, entry] : header.items()) {
    if (name == "__metadata__") continue;
    RawTensor tensor;
    tensor.name = name;
    std::uint64_t begin = 0;
    try {
      const auto dtype = parse_safetensors_dtype(entry.at("dtype").get<std::string>());
      if (!dtype) fail(name + ".dtype: unknown dtype " + entry.at("dtype").dump());
      tensor.dtype = *dtype;
      tensor.shape = entry.at("shape").get<std::vector<std::int64_t>>();
      const auto offsets = entry.at("data_offsets").get<std::vector<std::uint64_t>>();
      if (offsets.size() != 2 || offsets[0] > offsets[1] || data_start + offsets[1] > file.size())
        fail(name + ".data_offsets: outside the data");
      if (static_cast<std::int64_t>(offsets[1] - offsets[0]) !=
          element_count(tensor.shape) * static_cast<std::int64_t>(dtype_size(tensor.dtype)))
        fail(name + ": data_offsets do not match dtype and shape");
      begin = offsets[0];
      tensor.bytes.assign(file.begin() + static_cast<std::ptrdiff_t>(data_start + offsets[0]),
                          file.begin() + static_cast<std::ptrdiff_t>(data_start + offsets[1]));
    } catch (const nlohmann::json::exception& e) {
      fail(name + ": malformed entry: " + e.what());
    }
    found.emplace_back(begin, std::move(tensor));
  }
  // The JSON header's key order is not the data order; the offsets are.
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<RawTensor> tensors;
  for (auto& item : found) tensors.push_back(std::move(item.second));
  return tensors;
}

}  // namespace pkb::dump
