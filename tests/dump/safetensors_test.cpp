// safetensors: a round trip keeps names, order, dtypes, shapes and bytes; bad files are named.
#include "src/dump/safetensors.h"

#include <gtest/gtest.h>

#include <fstream>

#include "src/common/error.h"

namespace pkb::dump {
namespace {

std::filesystem::path temp_file(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("pkb_safetensors_test_" + name);
}

TEST(Safetensors, RoundTripsTensorsInOrder) {
  std::vector<RawTensor> tensors = {
      {"zeta", DType::bf16, {2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}},
      {"alpha", DType::int64, {1}, {9, 0, 0, 0, 0, 0, 0, 0}},
      {"empty", DType::fp32, {0, 4}, {}},
  };
  const auto path = temp_file("roundtrip");
  write_safetensors(path, tensors, {{"problem", "001_allreduce"}});
  const auto back = read_safetensors(path);
  ASSERT_EQ(back.size(), 3u);
  for (std::size_t index = 0; index < tensors.size(); ++index) {
    EXPECT_EQ(back[index].name, tensors[index].name);
    EXPECT_EQ(back[index].dtype, tensors[index].dtype);
    EXPECT_EQ(back[index].shape, tensors[index].shape);
    EXPECT_EQ(back[index].bytes, tensors[index].bytes);
  }
  std::ifstream in(path, std::ios::binary);
  unsigned char length[8];
  in.read(reinterpret_cast<char*>(length), 8);
  EXPECT_EQ(length[0] % 8, 0);  // padded so the data starts 8-aligned
  EXPECT_EQ(length[7], 0);      // little-endian u64
  std::filesystem::remove(path);
}

TEST(Safetensors, RejectsTruncatedAndInconsistentFiles) {
  const auto path = temp_file("bad");
  {
    std::ofstream out(path, std::ios::binary);
    out << "abc";
  }
  try {
    read_safetensors(path);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()), path.string() + ": shorter than the 8-byte header length");
  }
  {
    std::ofstream out(path, std::ios::binary);
    const std::string header = R"({"x":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})";
    const unsigned char length[8] = {static_cast<unsigned char>(header.size()), 0, 0, 0, 0, 0, 0, 0};
    out.write(reinterpret_cast<const char*>(length), 8);
    out << header << "abcd";
  }
  try {
    read_safetensors(path);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()), path.string() + ": x: data_offsets do not match dtype and shape");
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace pkb::dump
