// The memory model's clocks (harness/ptx/memory_model/knowledge.h) and the detector's rules on
// hand-made agents: a join raises a component at the strength it arrives with and keeps the
// weaker views at least as high; a write is ordered for a reader only through a release that
// reaches it, at the strength of the weakest link; morally strong accesses never race.
#include <gtest/gtest.h>

#include "harness/ptx/memory_model/race_detector.h"

namespace pkb::ptx::mm {
namespace {

TEST(Knowledge, AJoinKeepsEachStrengthAndTheWeakerViewsAbove) {
  Knowledge a, b;
  b.raise_agent(7, 10, Strength::ordered);
  b.raise_agent(8, 4, Strength::unacquired);
  a.join(b, Strength::unacquired);  // seen by a poll without an acquire
  EXPECT_EQ(reaches(a.agent(7), 10), Strength::unacquired);
  EXPECT_EQ(reaches(a.agent(8), 4), Strength::unacquired);
  a.join(b, Strength::ordered);     // acquired later
  EXPECT_EQ(reaches(a.agent(7), 10), Strength::ordered);
  EXPECT_EQ(reaches(a.agent(7), 11), Strength::none);
  EXPECT_EQ(reaches(a.agent(8), 4), Strength::unacquired) << "b only saw 8 unacquired itself";
  a.raise_cta(3, 2, Strength::narrow);
  EXPECT_EQ(reaches(a.cta(3), 2), Strength::narrow);
  EXPECT_EQ(reaches(a.cta(3), 3), Strength::none);
  EXPECT_EQ(a.stream(0), nullptr);
}

struct TwoRanks {
  RaceDetector detector;
  std::uint32_t writer = 0, reader = 0, same_rank = 0;
  std::uint8_t data[64] = {};
  std::uint32_t flag = 0;
  TwoRanks() {
    detector.begin_call();
    writer = detector.add_agent({0, detector.new_cta(), 0, 0, 0}, nullptr);
    reader = detector.add_agent({1, detector.new_cta(), 0, 0, 0}, nullptr);
    same_rank = detector.add_agent({0, detector.new_cta(), 0, 0, 0}, nullptr);
  }
  std::uint64_t at(const void* p) const { return reinterpret_cast<std::uint64_t>(p); }
  std::uint32_t next_pc = 0;
  AccessOp op(bool write, bool strong, Scope scope, bool acquire = false) {
    AccessOp o;
    o.pc = ++next_pc;  // each access its own instruction
    o.write = write;
    o.read = !write;
    o.strong = strong;
    o.scope = scope;
    o.acquire = acquire;
    return o;
  }
  // writer: data (weak), a fence at `fence`, then a relaxed flag store; reader: a poll of the flag
  // at `poll`, a fence at `reader_fence`, then the data. Returns the finding of the data read.
  const Finding* push_then_flag(std::uint32_t who, Scope fence, Scope poll, bool acquire,
                                Scope reader_fence = Scope::none) {
    detector.access(writer, at(data), 16, op(true, false, Scope::none));
    if (fence != Scope::none) detector.fence(writer, fence);
    detector.access(writer, at(&flag), 4, op(true, true, Scope::sys));
    detector.access(who, at(&flag), 4, op(false, true, poll, acquire));
    if (reader_fence != Scope::none) detector.fence(who, reader_fence);
    return detector.access(who, at(data), 16, op(false, false, Scope::none));
  }
};

TEST(RaceDetector, ASystemScopeReleaseAndAcquireOrderDataAcrossRanks) {
  TwoRanks t;
  EXPECT_EQ(t.push_then_flag(t.reader, Scope::sys, Scope::sys, true), nullptr);
}

TEST(RaceDetector, AGpuScopeFenceDoesNotReachAnotherRank) {
  TwoRanks t;
  const Finding* finding = t.push_then_flag(t.reader, Scope::gpu, Scope::sys, true);
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->strength, Strength::narrow);
}

TEST(RaceDetector, AGpuScopeFenceOrdersBlocksOfOneRank) {
  TwoRanks t;
  EXPECT_EQ(t.push_then_flag(t.same_rank, Scope::gpu, Scope::gpu, true), nullptr);
}

TEST(RaceDetector, NoWriterFenceIsARaceOfNothingOrdered) {
  TwoRanks t;
  const Finding* finding = t.push_then_flag(t.reader, Scope::none, Scope::sys, true);
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->strength, Strength::none);
}

TEST(RaceDetector, APollWithoutAcquireIsOnlyUnacquiredAndAFenceAfterItAcquires) {
  TwoRanks t;
  const Finding* finding = t.push_then_flag(t.reader, Scope::sys, Scope::sys, false);
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->strength, Strength::unacquired);
  TwoRanks u;  // the acquire pattern: a strong read, then a fence
  EXPECT_EQ(u.push_then_flag(u.reader, Scope::sys, Scope::sys, false, Scope::sys), nullptr);
}

TEST(RaceDetector, MorallyStrongAccessesNeverRaceButNarrowOnesDo) {
  TwoRanks t;
  t.detector.access(t.writer, t.at(&t.flag), 4, t.op(true, true, Scope::sys));
  EXPECT_EQ(t.detector.access(t.reader, t.at(&t.flag), 4, t.op(false, true, Scope::sys)), nullptr);
  // .gpu on the writer's side does not include a thread of another rank: not morally strong.
  t.detector.access(t.writer, t.at(&t.flag), 4, t.op(true, true, Scope::gpu));
  EXPECT_NE(t.detector.access(t.reader, t.at(&t.flag), 4, t.op(false, true, Scope::sys)), nullptr);
}

TEST(RaceDetector, AFullBlockBarrierOrdersItsWarps) {
  RaceDetector detector;
  detector.begin_call();
  const std::uint32_t cta = detector.new_cta();
  const std::uint32_t a = detector.add_agent({0, cta, cta, 0, 0}, nullptr);
  const std::uint32_t b = detector.add_agent({0, cta, cta, 0, 0}, nullptr);
  std::uint32_t word = 0;
  const auto address = reinterpret_cast<std::uint64_t>(&word);
  AccessOp write, read;
  write.write = true;
  read.read = true;
  detector.access(a, address, 4, write);
  detector.barrier_arrive(a, cta, 0);
  detector.barrier_arrive(b, cta, 0);
  detector.barrier_complete(cta, 0, true, {a, b});
  EXPECT_EQ(detector.access(b, address, 4, read), nullptr);
  detector.access(b, address, 4, write);  // no barrier since a's read? a reads after: a race
  EXPECT_NE(detector.access(a, address, 4, read), nullptr);
}

}  // namespace
}  // namespace pkb::ptx::mm
