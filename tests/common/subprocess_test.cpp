// run_process: exit codes, separate stdout/stderr, stdin, large outputs without deadlock, timeouts.
#include <gtest/gtest.h>

#include "src/common/error.h"
#include "src/common/subprocess.h"

namespace pkb {
namespace {

TEST(Subprocess, CapturesBothStreamsAndTheExitCode) {
  const ProcessResult run = run_process({"sh", "-c", "echo out; echo err >&2; exit 3"});
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_EQ(run.out, "out\n");
  EXPECT_EQ(run.err, "err\n");
  EXPECT_FALSE(run.timed_out);
}

TEST(Subprocess, FeedsStdinAndDrainsLargeOutputs) {
  const std::string input(1 << 20, 'a');  // more than a pipe buffer both ways
  const ProcessResult run = run_process({"sh", "-c", "cat; cat /dev/null >&2"}, input);
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out.size(), input.size());
}

TEST(Subprocess, KillsAChildPastItsTimeout) {
  const ProcessResult run = run_process({"sleep", "5"}, "", 0.2);
  EXPECT_TRUE(run.timed_out);
  EXPECT_EQ(run.exit_code, 128 + 9);
}

TEST(Subprocess, AMissingProgramIsAnError) {
  EXPECT_THROW(run_process({"pkb-no-such-program"}), Error);
  EXPECT_EQ(find_program("pkb-no-such-program"), "");
  EXPECT_NE(find_program("sh"), "");
}

}  // namespace
}  // namespace pkb
