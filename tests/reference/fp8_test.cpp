// reference/fp8: every e4m3 code decoded and encoded again, every rounding midpoint, subnormals,
// saturation and NaN, and random values against a brute-force nearest-code search.
#include "reference/fp8.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "src/common/error.h"

namespace pkb::ref {
namespace {

// The value of a code from the format's definition, independently of e4m3_to_float.
double code_value(int code) {
  const double sign = (code & 0x80) != 0 ? -1.0 : 1.0;
  const int exponent = (code >> 3) & 0xf;
  const double mantissa = code & 0x7;
  if (exponent == 0) return sign * (mantissa / 8) * std::pow(2.0, -6);
  return sign * (1 + mantissa / 8) * std::pow(2.0, exponent - 7);
}

// Round to nearest over the 127 finite non-negative codes, ties to the even code; anything
// beyond 448 lands on 448 (saturation).
std::uint8_t nearest_code(float value) {
  const double magnitude = std::fabs(static_cast<double>(value));
  int best = 0;
  for (int code = 1; code <= 0x7e; ++code) {
    const double gap = std::fabs(code_value(code) - magnitude);
    const double best_gap = std::fabs(code_value(best) - magnitude);
    if (gap < best_gap || (gap == best_gap && code % 2 == 0)) best = code;
  }
  return static_cast<std::uint8_t>((std::signbit(value) ? 0x80 : 0) | best);
}

TEST(Fp8E4m3, DecodesTheFormatsLandmarks) {
  EXPECT_EQ(e4m3_to_float(0x00), 0.0f);
  EXPECT_TRUE(std::signbit(e4m3_to_float(0x80)));
  EXPECT_EQ(e4m3_to_float(0x01), std::ldexp(1.0f, -9));  // smallest subnormal
  EXPECT_EQ(e4m3_to_float(0x07), std::ldexp(7.0f, -9));  // largest subnormal
  EXPECT_EQ(e4m3_to_float(0x08), std::ldexp(1.0f, -6));  // smallest normal
  EXPECT_EQ(e4m3_to_float(0x38), 1.0f);
  EXPECT_EQ(e4m3_to_float(0x3b), 1.375f);
  EXPECT_EQ(e4m3_to_float(0x7e), 448.0f);
  EXPECT_EQ(e4m3_to_float(0xfe), -448.0f);
  EXPECT_TRUE(std::isnan(e4m3_to_float(0x7f)));
  EXPECT_TRUE(std::isnan(e4m3_to_float(0xff)));
}

TEST(Fp8E4m3, EveryCodeDecodesToItsValueAndEncodesBackToItself) {
  for (int code = 0; code < 256; ++code) {
    const float value = e4m3_to_float(static_cast<std::uint8_t>(code));
    if ((code & 0x7f) != 0x7f) {
      EXPECT_EQ(static_cast<double>(value), code_value(code)) << "code " << code;
    }
    EXPECT_EQ(e4m3_from_float(value), code) << "code " << code;
  }
}

TEST(Fp8E4m3, MidpointsRoundToTheEvenCodeAndNeighboursToTheNearer) {
  for (int code = 0; code < 0x7e; ++code) {
    const float low = e4m3_to_float(static_cast<std::uint8_t>(code));
    const float high = e4m3_to_float(static_cast<std::uint8_t>(code + 1));
    const float middle = (low + high) / 2;  // exact: two more bits than e4m3 holds
    const int even = code % 2 == 0 ? code : code + 1;
    EXPECT_EQ(e4m3_from_float(middle), even) << "between codes " << code << " and " << code + 1;
    EXPECT_EQ(e4m3_from_float(-middle), 0x80 | even)
        << "between codes " << code << " and " << code + 1;
    EXPECT_EQ(e4m3_from_float(std::nextafter(middle, 0.0f)), code);
    EXPECT_EQ(e4m3_from_float(std::nextafter(middle, 1000.0f)), code + 1);
  }
}

TEST(Fp8E4m3, RoundsSubnormalsInStepsOfTwoToTheMinusNine) {
  const float step = std::ldexp(1.0f, -9);
  EXPECT_EQ(e4m3_from_float(step / 2), 0x00);  // tie to even: zero
  EXPECT_EQ(e4m3_from_float(std::nextafter(step / 2, 1.0f)), 0x01);
  EXPECT_EQ(e4m3_from_float(1.5f * step), 0x02);  // tie to even: 2
  EXPECT_EQ(e4m3_from_float(2.5f * step), 0x02);
  EXPECT_EQ(e4m3_from_float(7.5f * step), 0x08);  // carries into the normals
  EXPECT_EQ(e4m3_from_float(std::ldexp(1.0f, -20)), 0x00);
  EXPECT_EQ(e4m3_from_float(-std::ldexp(1.0f, -20)), 0x80);  // the sign of zero survives
  EXPECT_EQ(e4m3_from_float(std::numeric_limits<float>::denorm_min()), 0x00);
  EXPECT_EQ(e4m3_from_float(-0.0f), 0x80);
}

TEST(Fp8E4m3, SaturatesBeyond448AndKeepsNaN) {
  for (float value : {448.0f, 449.0f, 464.0f, 465.0f, 480.0f, 1e6f,
                      std::numeric_limits<float>::max(), std::numeric_limits<float>::infinity()}) {
    EXPECT_EQ(e4m3_from_float(value), 0x7e) << value;
    EXPECT_EQ(e4m3_from_float(-value), 0xfe) << value;
  }
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(e4m3_from_float(nan), 0x7f);
  EXPECT_EQ(e4m3_from_float(-nan), 0xff);
}

TEST(Fp8E4m3, MatchesTheNearestCodeOnRandomValues) {
  std::mt19937 generator(1234);
  std::uniform_real_distribution<float> exponent(-14.0f, 10.0f);
  std::uniform_int_distribution<std::uint32_t> bits;
  for (int i = 0; i < 20000; ++i) {
    float value = std::exp2(exponent(generator)) * (i % 2 == 0 ? 1.0f : -1.0f);
    ASSERT_EQ(e4m3_from_float(value), nearest_code(value)) << value;
    const std::uint32_t pattern = bits(generator);
    std::memcpy(&value, &pattern, sizeof value);
    if (!std::isnan(value)) {
      ASSERT_EQ(e4m3_from_float(value), nearest_code(value)) << value;
    }
  }
}

TEST(Fp8E4m3, ConvertsTensorsElementwiseKeepingShape) {
  const at::Tensor codes = at::arange(256, at::kLong).to(at::kByte).reshape({16, 16});
  const at::Tensor values = from_e4m3(codes);
  EXPECT_EQ(values.scalar_type(), at::kFloat);
  EXPECT_EQ(values.sizes(), codes.sizes());
  const at::Tensor back = to_e4m3(values.to(at::kDouble));
  EXPECT_EQ(back.scalar_type(), at::kByte);
  EXPECT_TRUE(at::equal(back, codes));
  // bf16 values are exact in fp32, so the conversion sees them unchanged.
  const at::Tensor halves = at::full({2, 3}, 0.3, at::kBFloat16);
  EXPECT_EQ(to_e4m3(halves)[1][2].item<std::uint8_t>(),
            e4m3_from_float(halves[0][0].item<float>()));
}

TEST(Fp8E4m3, RejectsTensorsOfTheWrongType) {
  try {
    to_e4m3(at::zeros({2}, at::kInt));
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "to_e4m3: expected a floating tensor, got Int");
  }
  try {
    from_e4m3(at::zeros({2}, at::kFloat));
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "from_e4m3: expected a Byte tensor of codes, got Float");
  }
}

}  // namespace
}  // namespace pkb::ref
