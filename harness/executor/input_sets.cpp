// The input-set count for timing (see input_sets.h).
#include "harness/executor/input_sets.h"

#include <algorithm>
#include <cmath>

namespace pkb::harness {

InputSetPlan plan_input_sets(std::uint64_t set_bytes, std::uint64_t l2_bytes,
                             const InputSetPolicy& policy) {
  InputSetPlan plan;
  if (set_bytes == 0) return plan;
  const double goal = policy.l2_multiple * static_cast<double>(l2_bytes);
  // Strictly more than the goal: floor(goal / size) + 1 sets.
  const double wanted = std::floor(goal / static_cast<double>(set_bytes)) + 1;
  const double fit =
      std::floor(static_cast<double>(policy.memory_budget_bytes) / static_cast<double>(set_bytes));
  double sets = std::max<double>(wanted, policy.min_sets);
  sets = std::min<double>(sets, policy.max_sets);
  sets = std::min(sets, std::max(fit, 1.0));
  plan.sets = static_cast<int>(sets);
  plan.distinct = std::min(plan.sets, std::max(policy.max_distinct, 1));
  plan.working_set_bytes = set_bytes * static_cast<std::uint64_t>(plan.sets);
  plan.exceeds_l2 = static_cast<double>(plan.working_set_bytes) > goal;
  return plan;
}

}  // namespace pkb::harness
