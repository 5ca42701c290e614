// ModuleInstance (see module_instance.h).
#include "harness/ptx/module_instance.h"

#include <cstring>

namespace pkb::ptx {

ModuleInstance::ModuleInstance(int rank, std::shared_ptr<const Program> program, MemoryMap& memory)
    : rank_(rank), program_(std::move(program)), memory_(memory) {
  addresses_.assign(program_->symbols.size(), 0);
  for (std::size_t s = 0; s < program_->symbols.size(); ++s) {
    const Symbol& symbol = program_->symbols[s];
    if (symbol.kind != SymbolKind::module_var ||
        (symbol.space != Space::global && symbol.space != Space::const_))
      continue;
    const std::uint64_t bytes = symbol.bytes == 0 ? 1 : symbol.bytes;
    const std::uint64_t align = symbol.align < 16 ? 16 : symbol.align;
    storage_.push_back(std::make_unique<std::uint8_t[]>(bytes + align));
    const auto raw = reinterpret_cast<std::uint64_t>(storage_.back().get());
    const std::uint64_t at = (raw + align - 1) / align * align;
    std::memset(reinterpret_cast<void*>(at), 0, bytes);
    if (!symbol.init.empty()) std::memcpy(reinterpret_cast<void*>(at), symbol.init.data(), symbol.init.size());
    addresses_[s] = at;
    memory_.add(at, bytes, rank_, "module variable " + symbol.name, /*module_var=*/true);
  }
}

ModuleInstance::~ModuleInstance() { memory_.remove_module_vars(rank_); }

}  // namespace pkb::ptx
