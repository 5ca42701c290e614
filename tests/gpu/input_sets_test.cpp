#include "harness/executor/input_sets.h"

#include <gtest/gtest.h>

namespace pkb::harness {
namespace {

constexpr std::uint64_t kL2 = 50ull << 20;  // H100/H200

TEST(InputSets, WorkingSetExceedsThreeL2) {
  const InputSetPlan plan = plan_input_sets(10ull << 20, kL2);  // 10 MiB of inputs
  EXPECT_EQ(plan.sets, 16);  // 16 x 10 MiB = 160 MiB > 150 MiB; 15 x 10 would be exactly 150
  EXPECT_TRUE(plan.exceeds_l2);
  EXPECT_GT(plan.working_set_bytes, 3 * kL2);
  EXPECT_EQ(plan.distinct, 8);
}

TEST(InputSets, LargeInputsStillRotateTwoSets) {
  const InputSetPlan plan = plan_input_sets(1ull << 30, kL2);
  EXPECT_EQ(plan.sets, 2);  // the re-check after timing needs a second set
  EXPECT_EQ(plan.distinct, 2);
  EXPECT_TRUE(plan.exceeds_l2);
}

TEST(InputSets, TinyInputsAreCappedAndSaySo) {
  const InputSetPlan plan = plan_input_sets(1024, kL2);
  EXPECT_EQ(plan.sets, InputSetPolicy{}.max_sets);
  EXPECT_FALSE(plan.exceeds_l2);
}

TEST(InputSets, MemoryBudgetLimitsTheCount) {
  InputSetPolicy policy;
  policy.memory_budget_bytes = 3ull << 30;
  const InputSetPlan plan = plan_input_sets(1ull << 30, 4ull << 30, policy);  // goal 12 GiB
  EXPECT_EQ(plan.sets, 3);
  EXPECT_FALSE(plan.exceeds_l2);
}

TEST(InputSets, NoInputsNeedOneSet) {
  const InputSetPlan plan = plan_input_sets(0, kL2);
  EXPECT_EQ(plan.sets, 1);
  EXPECT_EQ(plan.distinct, 1);
}

}  // namespace
}  // namespace pkb::harness
