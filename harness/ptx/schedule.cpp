// Names of the schedules and the schedule of each correctness trial (see schedule.h).
#include "harness/ptx/schedule.h"

#include <algorithm>
#include <numeric>

namespace pkb::ptx {

std::string schedule_name(SchedulePolicy policy) {
  switch (policy) {
    case SchedulePolicy::fair: return "fair";
    case SchedulePolicy::rank_order: return "rank order";
    case SchedulePolicy::reverse_order: return "reverse rank order";
    case SchedulePolicy::random: return "random preemption";
  }
  return "?";
}

// Trial 1 fair; 2 rank 0 first; 3 rank W-1 first; 4 random preemption with lanes split; 5 a
// seeded rank permutation first; then random and permutations alternate. With ranks both ways
// round, every pair of ranks runs once with each of them ahead.
Schedule trial_schedule(int trial, int world, std::uint64_t seed) {
  Schedule schedule;
  schedule.seed = seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(trial) + 1;
  std::vector<int> ranks(static_cast<std::size_t>(world));
  std::iota(ranks.begin(), ranks.end(), 0);
  switch (trial) {
    case 0: schedule.policy = SchedulePolicy::fair; break;
    case 1: schedule.policy = SchedulePolicy::rank_order; break;
    case 2:
      schedule.policy = SchedulePolicy::reverse_order;
      std::reverse(ranks.begin(), ranks.end());
      break;
    case 3: schedule.policy = SchedulePolicy::random; break;
    default:
      if (trial % 2 == 1) {
        schedule.policy = SchedulePolicy::random;
      } else {
        schedule.policy = SchedulePolicy::rank_order;
        ScheduleRandom random(schedule.seed);
        for (std::size_t i = ranks.size(); i > 1; --i)
          std::swap(ranks[i - 1], ranks[static_cast<std::size_t>(random.below(i))]);
      }
      break;
  }
  schedule.rank_priority = ranks;
  return schedule;
}

}  // namespace pkb::ptx
