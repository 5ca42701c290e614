// The small rules of the executor: sticky errors, the emulation choice, the speed-of-light flag.
#include <gtest/gtest.h>

#include "harness/cuda/emulation.h"
#include "harness/cuda/sticky_errors.h"
#include "src/common/error.h"

namespace pkb::harness {
namespace {

TEST(StickyErrors, FaultsAreSticky) {
  for (int code : {700, 719, 716, 715, 714, 718, 717, 710, 226})
    EXPECT_TRUE(is_sticky_error(code)) << code;
}

TEST(StickyErrors, UsageErrorsAreNot) {
  // CUDA_ERROR_INVALID_VALUE, LAUNCH_OUT_OF_RESOURCES, COOPERATIVE_LAUNCH_TOO_LARGE, NOT_READY.
  for (int code : {1, 701, 720, 600}) EXPECT_FALSE(is_sticky_error(code)) << code;
}

TEST(Emulation, AutoEmulatesOnlyWhenShort) {
  EXPECT_TRUE(decide_emulation(EmulateMode::auto_detect, 8, 1));
  EXPECT_FALSE(decide_emulation(EmulateMode::auto_detect, 8, 8));
  EXPECT_TRUE(decide_emulation(EmulateMode::on, 2, 8));
  EXPECT_FALSE(decide_emulation(EmulateMode::off, 2, 2));
}

TEST(Emulation, OffWithTooFewGpusNamesTheShortfall) {
  try {
    decide_emulation(EmulateMode::off, 4, 1);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "executor: world 4 needs 4 GPUs, this machine has 1 (emulation is off)");
  }
  EXPECT_THROW(decide_emulation(EmulateMode::auto_detect, 2, 0), Error);
}

}  // namespace
}  // namespace pkb::harness
