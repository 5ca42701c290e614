// What one agent of the simulated node (a warp, or a plan step) knows to have happened before its
// next access: the PTX memory model's causality order as a vector clock. Three parts:
// streams (plan steps and kernels completed in stream order, per rank and stream), ctas (a block's
// full bar.sync generations: everything each of its warps did before arriving) and agents (one
// agent's events up to an epoch, learned through a release). Each entry is known at three
// strengths (Strength): acquired as the model requires; seen by a strong poll that lacked the
// acquire; or seen through a release whose scope does not include the reader. The weaker views
// classify a race (an error or only a warning) without changing what is ordered.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace pkb::ptx::mm {

/// How an event is known, strongest first. `none`: not known at all.
enum class Strength : std::uint8_t { ordered = 0, unacquired = 1, narrow = 2, none = 3 };
constexpr int kStrengths = 3;

/// A component's value at each strength; at[k] covers at[k-1] (at[0] <= at[1] <= at[2]).
struct Levels {
  std::array<std::uint32_t, kStrengths> at{};
};

class Knowledge {
 public:
  using Map = std::vector<std::pair<std::uint32_t, Levels>>;  // sorted by key

  /// Raises one component to `value` at `strength` (and the weaker views with it).
  void raise_stream(std::uint32_t slot, std::uint32_t value, Strength strength) { raise(streams_, slot, value, strength); }
  void raise_cta(std::uint32_t cta, std::uint32_t generation, Strength strength) { raise(ctas_, cta, generation, strength); }
  void raise_agent(std::uint32_t agent, std::uint32_t epoch, Strength strength) { raise(agents_, agent, epoch, strength); }
  /// Joins `other` in, as seen at `strength`: other's view k counts as max(k, strength) here.
  void join(const Knowledge& other, Strength strength);
  /// Drops agent entries a cta generation now covers (`covered` says which).
  template <class Covered>
  void drop_agents(Covered&& covered) {
    agents_.erase(std::remove_if(agents_.begin(), agents_.end(),
                                 [&](const auto& entry) { return covered(entry.first, entry.second); }),
                  agents_.end());
  }

  const Levels* stream(std::uint32_t slot) const { return find(streams_, slot); }
  const Levels* cta(std::uint32_t cta) const { return find(ctas_, cta); }
  const Levels* agent(std::uint32_t agent) const { return find(agents_, agent); }
  std::size_t entries() const { return streams_.size() + ctas_.size() + agents_.size(); }

 private:
  static void raise(Map& map, std::uint32_t key, std::uint32_t value, Strength strength);
  static void join_map(Map& into, const Map& from, int shift);
  static const Levels* find(const Map& map, std::uint32_t key) {
    auto it = std::lower_bound(map.begin(), map.end(), key, [](const auto& entry, std::uint32_t k) { return entry.first < k; });
    return it != map.end() && it->first == key ? &it->second : nullptr;
  }

  Map streams_, ctas_, agents_;
};

/// The strongest strength at which `levels` reach `value` (Strength::none when none does).
inline Strength reaches(const Levels* levels, std::uint32_t value) {
  if (!levels) return Strength::none;
  for (int k = 0; k < kStrengths; ++k)
    if (levels->at[static_cast<std::size_t>(k)] >= value) return static_cast<Strength>(k);
  return Strength::none;
}

}  // namespace pkb::ptx::mm
