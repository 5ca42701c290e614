// Shadow pages: made zeroed on first touch (agent 0 everywhere: nothing happened this call).
#include "harness/ptx/memory_model/shadow.h"

#include <algorithm>

namespace pkb::ptx::mm {

Cell* Shadow::page_cells(std::uint64_t page) {
  auto it = pages_.find(page);
  if (it != pages_.end()) return it->second.get();
  if (pages_.size() >= kMaxPages) {
    overflowed_ = true;
    return nullptr;
  }
  auto cells = std::make_unique<Cell[]>(kPageBytes);
  Cell* raw = cells.get();
  pages_.emplace(page, std::move(cells));
  return raw;
}

void Shadow::forget(std::uint64_t address, std::uint64_t bytes) {
  for (std::uint64_t at = address; at < address + bytes;) {
    const std::uint64_t page = at >> kPageBits;
    const std::uint64_t page_end = (page + 1) << kPageBits;
    const std::uint64_t end = std::min(page_end, address + bytes);
    auto it = pages_.find(page);
    if (it != pages_.end())
      for (std::uint64_t b = at; b < end; ++b) it->second[b & (kPageBytes - 1)] = Cell{};
    at = end;
  }
}

void Shadow::clear() {
  pages_.clear();
  last_page_ = ~std::uint64_t{0};
  last_ = nullptr;
  overflowed_ = false;
}

}  // namespace pkb::ptx::mm
