// A program loaded on one rank: storage for its .global and .const variables, initialised from
// the PTX and registered in the memory map, so `__device__` state lives exactly as long as the
// module (the executor reloads it between trials, as on a GPU).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "harness/ptx/memory_map.h"
#include "harness/ptx/program.h"

namespace pkb::ptx {

class ModuleInstance {
 public:
  ModuleInstance(int rank, std::shared_ptr<const Program> program, MemoryMap& memory);
  ~ModuleInstance();
  ModuleInstance(const ModuleInstance&) = delete;
  ModuleInstance& operator=(const ModuleInstance&) = delete;

  const Program& program() const { return *program_; }
  std::shared_ptr<const Program> shared_program() const { return program_; }
  /// The host address of module variable `symbol` (.global or .const), 0 for other symbols.
  std::uint64_t address(int symbol) const { return addresses_[static_cast<std::size_t>(symbol)]; }

 private:
  int rank_;
  std::shared_ptr<const Program> program_;
  MemoryMap& memory_;
  std::vector<std::unique_ptr<std::uint8_t[]>> storage_;
  std::vector<std::uint64_t> addresses_;
};

}  // namespace pkb::ptx
