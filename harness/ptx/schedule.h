// How the simulated node interleaves work: which warp runs next, for how long, and whether lanes
// of a warp are held back. A seed fixes every choice, so a schedule replays exactly. The trial
// schedules differ on purpose: fair round-robin, each rank far ahead of the others in turn (what
// random launch delays do on GPUs), ranks in reverse order, and random preemption with lanes of a
// warp split apart, so a missing barrier or __syncwarp shows as a wrong answer, not as luck.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pkb::ptx {

enum class SchedulePolicy : std::uint8_t {
  fair,          // round-robin over every runnable warp, fixed quanta
  rank_order,    // a warp of rank r runs only when no rank before r can: rank 0 far ahead
  reverse_order, // the same with rank W-1 first
  random,        // random warp, random quanta, lanes of a warp split and held back
};

std::string schedule_name(SchedulePolicy policy);

struct Schedule {
  SchedulePolicy policy = SchedulePolicy::fair;
  std::uint64_t seed = 1;
  std::vector<int> rank_priority;  // rank_order/reverse_order: ranks, first runs first (empty: 0..W-1)
};

/// The schedule of correctness trial `trial` (0-based) of a run with `world` ranks.
Schedule trial_schedule(int trial, int world, std::uint64_t seed);

/// A small deterministic generator (splitmix64): the one source of every scheduling choice.
class ScheduleRandom {
 public:
  explicit ScheduleRandom(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n).
  std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : next() % n; }

 private:
  std::uint64_t state_;
};

}  // namespace pkb::ptx
