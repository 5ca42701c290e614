// Knowledge's joins: sorted maps merged entry by entry, each value raised at the strength it
// arrives with and the weaker views kept at least as high as the stronger ones.
#include "harness/ptx/memory_model/knowledge.h"

namespace pkb::ptx::mm {
namespace {

void raise_levels(Levels& levels, const Levels& other, int shift) {
  for (int k = 0; k < kStrengths; ++k) {
    const std::size_t to = static_cast<std::size_t>(std::max(k, shift));
    levels.at[to] = std::max(levels.at[to], other.at[static_cast<std::size_t>(k)]);
  }
  for (std::size_t k = 1; k < levels.at.size(); ++k) levels.at[k] = std::max(levels.at[k], levels.at[k - 1]);
}

}  // namespace

void Knowledge::raise(Map& map, std::uint32_t key, std::uint32_t value, Strength strength) {
  Levels add;
  add.at.fill(value);
  auto it = std::lower_bound(map.begin(), map.end(), key, [](const auto& entry, std::uint32_t k) { return entry.first < k; });
  if (it == map.end() || it->first != key) it = map.insert(it, {key, Levels{}});
  raise_levels(it->second, add, static_cast<int>(strength));
}

void Knowledge::join_map(Map& into, const Map& from, int shift) {
  if (from.empty()) return;
  Map merged;
  merged.reserve(into.size() + from.size());
  auto a = into.cbegin();
  auto b = from.cbegin();
  while (a != into.cend() || b != from.cend()) {
    if (b == from.cend() || (a != into.cend() && a->first < b->first)) {
      merged.push_back(*a++);
    } else if (a == into.cend() || b->first < a->first) {
      merged.push_back({b->first, Levels{}});
      raise_levels(merged.back().second, b->second, shift);
      ++b;
    } else {
      merged.push_back(*a++);
      raise_levels(merged.back().second, b->second, shift);
      ++b;
    }
  }
  into.swap(merged);
}

void Knowledge::join(const Knowledge& other, Strength strength) {
  const int shift = static_cast<int>(strength);
  join_map(streams_, other.streams_, shift);
  join_map(ctas_, other.ctas_, shift);
  join_map(agents_, other.agents_, shift);
}

}  // namespace pkb::ptx::mm
