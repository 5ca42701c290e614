// The detector's shadow memory: for every byte a kernel or plan step touched in this call, the
// last write and the last read (Stamp: which agent, at which epoch, which instruction and lane,
// how strong and at which scope). Kept per 4 KiB page, made on first touch and dropped when a
// call starts; a call that touches more than kMaxPages pages leaves the rest unchecked (say so).
// Cost: sizeof(Cell) = 32 bytes of shadow per byte touched.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

namespace pkb::ptx::mm {

/// One access, as the shadow remembers it. agent 0 is "before the call" (the harness's writes).
struct Stamp {
  std::uint32_t agent = 0;
  std::uint32_t epoch = 0;
  std::uint32_t pc = 0;      // instruction index in the agent's program
  std::uint8_t lane = 0;
  std::uint8_t bits = 0;     // kStrong | scope << kScopeShift | kMulticast
  std::uint8_t size = 0;     // bytes of the access (255: larger)
  std::uint8_t offset = 0;   // this byte's offset in the access (255: farther)
};
constexpr std::uint8_t kStrong = 1;
constexpr int kScopeShift = 1;  // 3 bits: ptx::Scope
constexpr std::uint8_t kMulticast = 1 << 4;
constexpr std::uint8_t kRmw = 1 << 5;
constexpr std::uint8_t kWriteBit = 1 << 6;

struct Cell {
  Stamp write, read;
};
static_assert(sizeof(Cell) == 32, "shadow cells are 32 bytes per byte of memory");

class Shadow {
 public:
  static constexpr int kPageBits = 12;
  static constexpr std::uint64_t kPageBytes = std::uint64_t{1} << kPageBits;
  static constexpr std::size_t kMaxPages = 8192;  // 32 MiB of memory, 1 GiB of shadow

  /// The cell of `address` (its page made on first touch), or nullptr past kMaxPages.
  Cell* cell(std::uint64_t address) {
    const std::uint64_t page = address >> kPageBits;
    if (page != last_page_) {
      Cell* cells = page_cells(page);
      if (!cells) return nullptr;
      last_page_ = page;
      last_ = cells;
    }
    return last_ + (address & (kPageBytes - 1));
  }
  /// Forgets [address, address + bytes) (a block's shared memory when the block starts).
  void forget(std::uint64_t address, std::uint64_t bytes);
  void clear();
  bool overflowed() const { return overflowed_; }
  std::size_t pages() const { return pages_.size(); }

 private:
  Cell* page_cells(std::uint64_t page);

  std::unordered_map<std::uint64_t, std::unique_ptr<Cell[]>> pages_;
  std::uint64_t last_page_ = ~std::uint64_t{0};
  Cell* last_ = nullptr;
  bool overflowed_ = false;
};

}  // namespace pkb::ptx::mm
