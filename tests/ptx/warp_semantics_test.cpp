// Warp-synchronous instructions under independent thread scheduling, as the PTX ISA defines them:
// a full member mask after some lanes returned is legal, a shuffle from an exited lane is
// undefined (NaN here, and noted), the executing lane must be in its mask, a named lane that never
// arrives is a deadlock, and lanes exchanging data through shared memory without __syncwarp race.
#include <gtest/gtest.h>

#include "tests/ptx/ptx_fixture.h"

namespace pkb::ptx_test {
namespace {

std::vector<std::uint64_t> iota_inputs(int n, std::uint64_t base = 100) {
  std::vector<std::uint64_t> in;
  for (int i = 0; i < n; ++i) in.push_back(base + static_cast<std::uint64_t>(i));
  return in;
}

TEST(WarpSync, FullMaskShuffleAfterEarlyReturnReadsOnlyLiveLanes) {
  const BodyRun run = run_body(R"(
    .reg .pred %p;
    .reg .b32 %v, %r;
    setp.ge.u32 %p, %tid32, 16;
    @%p ret;
    cvt.u32.u64 %v, %in;
    shfl.sync.bfly.b32 %r, %v, 1, 31, -1;
    cvt.u64.u32 %out, %r;
  )", iota_inputs(32));
  ASSERT_EQ(run.fault, "");
  EXPECT_EQ(run.note, "");
  for (int lane = 0; lane < 16; ++lane) EXPECT_EQ(run.out[lane], 100u + (lane ^ 1)) << lane;
  for (int lane = 16; lane < 32; ++lane) EXPECT_EQ(run.out[lane], 0u) << lane;
}

TEST(WarpSync, ShuffleFromAnExitedLaneGivesNaNAndIsNoted) {
  const BodyRun run = run_body(R"(
    .reg .pred %p;
    .reg .b32 %v, %r;
    setp.ge.u32 %p, %tid32, 16;
    @%p ret;
    cvt.u32.u64 %v, %in;
    shfl.sync.down.b32 %r, %v, 8, 31, -1;
    cvt.u64.u32 %out, %r;
  )", iota_inputs(32));
  ASSERT_EQ(run.fault, "");
  for (int lane = 0; lane < 8; ++lane) EXPECT_EQ(run.out[lane], 108u + lane) << lane;
  for (int lane = 8; lane < 16; ++lane) EXPECT_EQ(run.out[lane], 0x7FFF7FFFu) << lane;
  EXPECT_NE(run.note.find("read lane 16, which had exited"), std::string::npos) << run.note;
  EXPECT_NE(run.note.find("thread (8,0,0)"), std::string::npos) << run.note;
}

TEST(WarpSync, ShuffleOutOfRangeKeepsOwnValueAndClearsThePredicate) {
  // shfl.up by 4 within segments of 8 lanes (c = (32 - 8) << 8): the first 4 lanes of each
  // segment read themselves and their predicate is false.
  const BodyRun run = run_body(R"(
    .reg .pred %p;
    .reg .b32 %v, %r, %ok;
    cvt.u32.u64 %v, %in;
    shfl.sync.up.b32 %r|%p, %v, 4, 6144, -1;
    selp.u32 %ok, 1000, 0, %p;
    add.u32 %r, %r, %ok;
    cvt.u64.u32 %out, %r;
  )", iota_inputs(32));
  ASSERT_EQ(run.fault, "");
  for (int lane = 0; lane < 32; ++lane) {
    const bool valid = lane % 8 >= 4;
    EXPECT_EQ(run.out[lane], (valid ? 1100u + lane - 4 : 100u + lane)) << lane;
  }
}

TEST(WarpSync, ALaneOutsideItsOwnMaskIsAFault) {
  const BodyRun run = run_body(R"(
    .reg .b32 %v, %r;
    cvt.u32.u64 %v, %in;
    shfl.sync.bfly.b32 %r, %v, 1, 31, 65535;
    cvt.u64.u32 %out, %r;
  )", iota_inputs(32));
  EXPECT_NE(run.fault.find("with member mask 0xffff, which leaves out the lane executing it"), std::string::npos)
      << run.fault;
  EXPECT_NE(run.fault.find("thread (16,0,0)"), std::string::npos) << run.fault;
}

TEST(WarpSync, ALaneThatNeverArrivesIsADeadlockNamingTheLanes) {
  const BodyRun run = run_body(R"(
    .reg .pred %p;
    setp.ge.u32 %p, %tid32, 16;
    @%p bra WAIT_AT_BARRIER;
    bar.warp.sync -1;
    bra DONE;
  WAIT_AT_BARRIER:
    bar.sync 0;
  DONE:
  )", iota_inputs(32));
  EXPECT_NE(run.fault.find("deadlock: `bar.warp.sync` waits for lanes 16-31"), std::string::npos) << run.fault;
  EXPECT_NE(run.fault.find("they wait at `bar.sync`"), std::string::npos) << run.fault;
}

TEST(WarpSync, VoteAndMatchSeeOnlyLiveLanes) {
  const BodyRun run = run_body(R"(
    .reg .pred %p, %q;
    .reg .b32 %ballot, %eq;
    .reg .b64 %hi;
    setp.ge.u32 %p, %tid32, 24;
    @%p ret;
    setp.lt.u32 %q, %tid32, 4;
    vote.sync.ballot.b32 %ballot, %q, -1;
    and.b32 %eq, %tid32, 1;
    match.any.sync.b32 %eq, %eq, -1;
    cvt.u64.u32 %out, %ballot;
    cvt.u64.u32 %hi, %eq;
    shl.b64 %hi, %hi, 32;
    or.b64 %out, %out, %hi;
  )", iota_inputs(32));
  ASSERT_EQ(run.fault, "");
  for (int lane = 0; lane < 24; ++lane) {
    const std::uint64_t same_parity = lane % 2 ? 0x00AAAAAAull : 0x00555555ull;
    EXPECT_EQ(run.out[lane], 0xFull | same_parity << 32) << lane;
  }
}

// A reduction that exchanges values through shared memory inside one warp. Without a
// bar.warp.sync between the steps it leans on lockstep execution: lanes held back by the random
// schedule read partial sums too early. With one after each step it is correct under every
// schedule.
std::string shared_reduction(bool syncwarp) {
  const std::string sync = syncwarp ? "bar.warp.sync -1;" : "";
  std::string body = R"(
    .shared .align 4 .b32 partial[64];
    .reg .b32 %v, %w, %offset, %other;
    .reg .pred %low;
    mov.u32 %offset, partial;
    mad.lo.u32 %offset, %tid32, 4, %offset;
    cvt.u32.u64 %v, %in;
    st.shared.u32 [%offset], %v;
    mov.u32 %w, 0;
    st.shared.u32 [%offset+128], %w;
  )" + sync;
  for (int step : {16, 8, 4, 2, 1}) {
    body += "ld.shared.u32 %other, [%offset+" + std::to_string(4 * step) + "];\n";
    body += "ld.shared.u32 %v, [%offset];\n add.u32 %v, %v, %other;\n";
    body += sync + "\n st.shared.u32 [%offset], %v;\n" + sync + "\n";
  }
  body += "cvt.u64.u32 %out, %v;\n";
  return body;
}

TEST(WarpSync, SharedMemoryExchangeWithoutSyncwarpRacesUnderRandomSchedules) {
  const std::vector<std::uint64_t> in = iota_inputs(32, 1);
  const std::uint64_t total = 32 * 33 / 2;
  // Lockstep (fair schedule, no lanes held): lane 0 gets the sum either way.
  EXPECT_EQ(run_body(shared_reduction(false), in).out[0], total);
  int wrong = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const BodyRun racy = run_body(shared_reduction(false), in, 32, ptx::SchedulePolicy::random, seed);
    ASSERT_EQ(racy.fault, "");
    wrong += racy.out[0] != total;
    const BodyRun synced = run_body(shared_reduction(true), in, 32, ptx::SchedulePolicy::random, seed);
    ASSERT_EQ(synced.fault, "");
    EXPECT_EQ(synced.out[0], total) << "seed " << seed;
  }
  EXPECT_GT(wrong, 0) << "no random schedule exposed the missing __syncwarp";
}

TEST(WarpSync, TheSameSeedReplaysTheSameSchedule) {
  const std::vector<std::uint64_t> in = iota_inputs(32, 1);
  for (std::uint64_t seed : {3ull, 7ull}) {
    const BodyRun first = run_body(shared_reduction(false), in, 32, ptx::SchedulePolicy::random, seed);
    const BodyRun again = run_body(shared_reduction(false), in, 32, ptx::SchedulePolicy::random, seed);
    EXPECT_EQ(first.out, again.out) << "seed " << seed;
  }
}

}  // namespace
}  // namespace pkb::ptx_test
