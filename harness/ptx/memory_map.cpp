// MemoryMap (see memory_map.h).
#include "harness/ptx/memory_map.h"

#include <algorithm>

#include "src/common/error.h"

namespace pkb::ptx {

std::string after_call_text(const Region& region) {
  const std::string owner = std::to_string(region.rank);
  return region.name + " of rank " + owner + " after rank " + owner +
         "'s call had ended (its streams were done; on a GPU its host returns and its next call may reuse that "
         "memory): no rank may end its call while peers still use its memory, so the plan needs a barrier "
         "step after the last peer access (docs/ABI.md)";
}

void MemoryMap::add(std::uint64_t begin, std::uint64_t bytes, int rank, std::string name, bool module_var) {
  Region region{begin, begin + bytes, rank, std::move(name), module_var};
  const auto at = std::lower_bound(regions_.begin(), regions_.end(), region,
                                   [](const Region& a, const Region& b) { return a.begin < b.begin; });
  PKB_ASSERT(at == regions_.end() || at->begin >= region.end, "memory regions overlap");
  PKB_ASSERT(at == regions_.begin() || std::prev(at)->end <= region.begin, "memory regions overlap");
  regions_.insert(at, std::move(region));
  last_ = nullptr;
}

void MemoryMap::name(std::uint64_t address, const std::string& name) {
  for (auto& region : regions_)
    if (address >= region.begin && address < region.end) region.name = name;
}

const Region* MemoryMap::find_slow(std::uint64_t address, std::uint64_t bytes) const {
  auto at = std::upper_bound(regions_.begin(), regions_.end(), address,
                             [](std::uint64_t a, const Region& r) { return a < r.begin; });
  if (at == regions_.begin()) return nullptr;
  --at;
  if (address + bytes > at->end || address + bytes < address) return nullptr;
  last_ = &*at;
  return last_;
}

std::string MemoryMap::describe_miss(std::uint64_t address, std::uint64_t bytes) const {
  if (regions_.empty()) return "no memory is allocated";
  const Region* nearest = nullptr;
  std::uint64_t distance = ~0ull;
  bool after = false;
  for (const auto& region : regions_) {
    if (address >= region.end && address - region.end < distance) {
      nearest = &region;
      distance = address - region.end;
      after = true;
    } else if (address < region.begin && region.begin - address < distance) {
      nearest = &region;
      distance = region.begin - address;
      after = false;
    } else if (address >= region.begin && address < region.end) {
      // Starts inside, ends past the end.
      return "it runs " + std::to_string(address + bytes - region.end) + " bytes past the end of " +
             region.name + " (" + std::to_string(region.end - region.begin) + " bytes" +
             (region.rank >= 0 ? ", rank " + std::to_string(region.rank) : "") + ")";
    }
  }
  const std::string owner = nearest->rank >= 0 ? ", rank " + std::to_string(nearest->rank) : "";
  const std::string size = std::to_string(nearest->end - nearest->begin) + " bytes";
  // A wild address far from everything: naming the closest buffer would suggest it was meant.
  constexpr std::uint64_t kFar = 1ull << 30;
  if (distance > kFar)
    return "no allocation holds it (the nearest, " + nearest->name + owner + ", is " + std::to_string(distance) +
           " bytes away)";
  if (after)
    return std::to_string(distance) + " bytes past the end of " + nearest->name + " (" + size + owner + ")";
  return std::to_string(distance) + " bytes before " + nearest->name + " (" + size + owner + ")";
}

void MemoryMap::remove_module_vars(int rank) {
  regions_.erase(std::remove_if(regions_.begin(), regions_.end(),
                                [&](const Region& r) { return r.module_var && r.rank == rank; }),
                 regions_.end());
  last_ = nullptr;
}

int MemoryMap::add_multicast(std::vector<std::uint64_t> addresses, std::uint64_t bytes) {
  multicast_.push_back({std::move(addresses), bytes});
  return static_cast<int>(multicast_.size()) - 1;
}

}  // namespace pkb::ptx
