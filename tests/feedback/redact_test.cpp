// redact_paths, drop_values and clip_line on the kinds of text harness messages carry.
#include "src/feedback/redact.h"

#include <gtest/gtest.h>

namespace pkb::feedback {
namespace {

TEST(Redact, ShortensAbsolutePaths) {
  EXPECT_EQ(redact_paths("/srv/x/harness/include/pkb/peers.cuh(12): error: bad"),
            "pkb/peers.cuh(12): error: bad");
  EXPECT_EQ(redact_paths("cannot read \"/srv/x/problems/001_allreduce/problem.json\""),
            "cannot read \"problem.json\"");
  EXPECT_EQ(redact_paths("x = a / b; 5/32 mismatches; /2"), "x = a / b; 5/32 mismatches; /2");
}

TEST(Redact, DropsSourceLocationsButNotCandidateLines) {
  EXPECT_EQ(redact_paths("cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE: invalid argument "
                         "(/srv/x/harness/cuda/cuda_device_work.cpp:88)"),
            "cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE: invalid argument");
  EXPECT_EQ(redact_paths("internal error: bad (harness/plan/plan.h:4) in step 2"),
            "internal error: bad in step 2");
  EXPECT_EQ(redact_paths("candidate.cu(4): error (rank 0 of 8)"),
            "candidate.cu(4): error (rank 0 of 8)");
}

TEST(Redact, DropValuesCutsFromGot) {
  EXPECT_EQ(drop_values("trial 1: rank 3 y: 5/32 mismatches, first at [1, 3]: got 4 expected 7"),
            "trial 1: rank 3 y: 5/32 mismatches, first at [1, 3]");
  EXPECT_EQ(drop_values("rank 3 y: shape [4, 8], expected [4, 16]"),
            "rank 3 y: shape [4, 8], expected [4, 16]");
}

TEST(Redact, ClipLineMarksTheCut) {
  EXPECT_EQ(clip_line("abcdef", 6), "abcdef");
  EXPECT_EQ(clip_line("abcdefg", 6), "abcdef [...]");
}

}  // namespace
}  // namespace pkb::feedback
