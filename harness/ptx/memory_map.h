// The simulated node's device memory: host memory, with every allocation registered as a region
// (owner rank, name, bytes), so each global access a thread makes is checked against what the plan
// and the module allocated. Generic addresses carry a tag in their top byte for the windows that
// are not host memory: a block's shared memory, a thread's local frame, a kernel's parameters and
// multicast objects. Host pointers never reach those tags (user space ends below 2^57).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace pkb::ptx {

constexpr std::uint64_t kTagShift = 60;
constexpr std::uint64_t kTagMask = 0xFull << kTagShift;
constexpr std::uint64_t kSharedTag = 0x1ull << kTagShift;
constexpr std::uint64_t kLocalTag = 0x2ull << kTagShift;
constexpr std::uint64_t kParamTag = 0x3ull << kTagShift;
constexpr std::uint64_t kMulticastTag = 0x4ull << kTagShift;
/// A multicast object's address: tag | object << 40 | offset.
constexpr int kMulticastObjectShift = 40;

struct Region {
  std::uint64_t begin = 0, end = 0;  // host addresses
  int rank = -1;                     // the rank whose memory it is (-1: harness-wide)
  std::string name;                  // "y", "signal pad", "module variable done_once"
  bool module_var = false;           // a __device__ variable (reset when the module reloads)
};

/// "y of rank 1 after rank 1's call had ended (...)": why touching `region` now is a race.
std::string after_call_text(const Region& region);

class MemoryMap {
 public:
  /// Registers [begin, begin + bytes); regions never overlap.
  void add(std::uint64_t begin, std::uint64_t bytes, int rank, std::string name, bool module_var = false);
  /// Renames the region holding `address` (the plan knows buffer names, the device does not).
  void name(std::uint64_t address, const std::string& name);
  /// The region holding all of [address, address + bytes), or nullptr.
  const Region* find(std::uint64_t address, std::uint64_t bytes) const {
    if (last_ && address >= last_->begin && address + bytes <= last_->end) return last_;
    return find_slow(address, bytes);
  }
  /// Why [address, address + bytes) is outside every region: the nearest region and the distance.
  std::string describe_miss(std::uint64_t address, std::uint64_t bytes) const;
  void remove_module_vars(int rank);

  /// A rank whose call has ended (its streams are done) may reuse its memory at once on a GPU (its
  /// host returns, the next call starts): a peer that still touches it races. The simulated device
  /// marks such ranks; translate() faults a peer's access to their regions.
  void set_call_ended(int rank, bool ended) {
    if (static_cast<std::size_t>(rank) >= ended_.size()) ended_.resize(static_cast<std::size_t>(rank) + 1, 0);
    ended_[static_cast<std::size_t>(rank)] = ended;
    any_ended_ = std::find(ended_.begin(), ended_.end(), 1) != ended_.end();
  }
  bool any_call_ended() const { return any_ended_; }
  bool call_ended(int rank) const {
    return rank >= 0 && static_cast<std::size_t>(rank) < ended_.size() && ended_[static_cast<std::size_t>(rank)];
  }
  /// Whether `region` is a peer's (not `rank`'s own) whose call has ended: touching it is a race.
  /// The one rule for kernels, multimem and the simulated device's copy steps.
  bool ended_for(const Region& region, int rank) const {
    return any_ended_ && region.rank != rank && call_ended(region.rank);
  }

  /// Multicast objects: object k maps offset o to addresses[r] + o on every rank r.
  int add_multicast(std::vector<std::uint64_t> addresses, std::uint64_t bytes);
  const std::vector<std::uint64_t>& multicast_addresses(int object) const { return multicast_[object].addresses; }
  std::uint64_t multicast_bytes(int object) const { return multicast_[object].bytes; }
  int multicast_objects() const { return static_cast<int>(multicast_.size()); }

 private:
  const Region* find_slow(std::uint64_t address, std::uint64_t bytes) const;
  std::vector<Region> regions_;  // sorted by begin
  std::vector<std::uint8_t> ended_;  // by rank: its call has ended
  bool any_ended_ = false;
  mutable const Region* last_ = nullptr;
  struct Multicast {
    std::vector<std::uint64_t> addresses;
    std::uint64_t bytes;
  };
  std::vector<Multicast> multicast_;
};

}  // namespace pkb::ptx
