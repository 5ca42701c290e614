#include "harness/executor/poison.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

namespace pkb::harness {
namespace {

float bf16_to_float(std::uint32_t bits) {
  const std::uint32_t wide = bits << 16;
  float value;
  std::memcpy(&value, &wide, 4);
  return value;
}

bool fp16_is_nan(std::uint32_t bits) {
  return (bits & 0x7C00u) == 0x7C00u && (bits & 0x03FFu) != 0;
}

TEST(Poison, FloatingTypesAreNaNInBothVariants) {
  for (int variant : {0, 1}) {
    const FillPattern bf16 = poison_pattern(DType::bf16, variant);
    EXPECT_EQ(bf16.unit_bytes, 2);
    EXPECT_TRUE(std::isnan(bf16_to_float(bf16.value)));
    EXPECT_TRUE(fp16_is_nan(poison_pattern(DType::fp16, variant).value));
    const FillPattern fp32 = poison_pattern(DType::fp32, variant);
    float f;
    std::memcpy(&f, &fp32.value, 4);
    EXPECT_TRUE(std::isnan(f));
    // fp64 repeats a 4-byte half: the 8-byte value must be NaN too.
    const FillPattern fp64 = poison_pattern(DType::fp64, variant);
    ASSERT_EQ(fp64.unit_bytes, 4);
    const std::uint64_t wide = (std::uint64_t(fp64.value) << 32) | fp64.value;
    double d;
    std::memcpy(&d, &wide, 8);
    EXPECT_TRUE(std::isnan(d));
    // fp8: S.1111.111 is NaN in e4m3fn, and S.11111.11 is NaN in e5m2.
    EXPECT_EQ(poison_pattern(DType::fp8e4m3, variant).value & 0x7Fu, 0x7Fu);
    EXPECT_EQ(poison_pattern(DType::fp8e5m2, variant).value & 0x7Fu, 0x7Fu);
  }
}

TEST(Poison, VariantsDifferForEveryType) {
  for (DType dtype :
       {DType::bf16, DType::fp16, DType::fp32, DType::fp64, DType::int8, DType::uint8, DType::int16,
        DType::int32, DType::int64, DType::boolean, DType::fp8e4m3, DType::fp8e5m2})
    EXPECT_NE(poison_pattern(dtype, 0).value, poison_pattern(dtype, 1).value) << dtype_name(dtype);
}

TEST(Poison, BoolAlternatesTrueAndFalse) {
  // A bool output left unwritten can match a constant answer in one trial, never in both.
  EXPECT_EQ(poison_pattern(DType::boolean, 0).value, 1u);
  EXPECT_EQ(poison_pattern(DType::boolean, 1).value, 0u);
}

TEST(Poison, GarbageDiffersBySeed) {
  std::set<std::uint32_t> words;
  for (std::uint64_t seed = 0; seed < 1000; ++seed) words.insert(garbage_word(seed));
  EXPECT_EQ(words.size(), 1000u);
}

}  // namespace
}  // namespace pkb::harness
