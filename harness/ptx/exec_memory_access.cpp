// Address resolution for every load, store and atomic: the address an operand names, the value of
// a symbol, and the translation of (state space, address) to host memory with its checks. Global
// addresses must fall inside a region of the memory map (a plan buffer, a signal pad, a module
// variable); shared ones inside the block's shared memory; local ones inside the thread's frame;
// param ones inside the launch's parameters. An access outside them, or misaligned, faults with
// the nearest buffer named; so does a peer's access to a rank whose call has ended.
#include <cstdio>

#include "harness/ptx/exec_state.h"

namespace pkb::ptx {
namespace {

std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

std::string access_text(Access access, std::uint32_t bytes) {
  const char* what = access == Access::read ? "load" : access == Access::write ? "store" : "atomic";
  return std::string(what) + " of " + std::to_string(bytes) + " bytes";
}

[[noreturn]] void outside(int lane, Access access, std::uint32_t bytes, const std::string& where) {
  lane_fault(lane, Fault::Kind::memory, "out-of-bounds " + access_text(access, bytes) + " " + where);
}

}  // namespace

void after_call(int lane, Access access, std::uint32_t bytes, const Region& region, int rank) {
  lane_fault(lane, Fault::Kind::race,
             "a " + access_text(access, bytes) + " by rank " + std::to_string(rank) + " in " + after_call_text(region));
}

void lane_fault(int lane, Fault::Kind kind, const std::string& message) { throw LaneFault{lane, kind, message}; }

std::uint64_t symbol_value(ExecState& s, int symbol) {
  const Symbol& sym = s.launch.program->symbols[static_cast<std::size_t>(symbol)];
  switch (sym.kind) {
    case SymbolKind::kernel_param: return static_cast<std::uint64_t>(sym.offset);
    case SymbolKind::frame: return static_cast<std::uint64_t>(s.group->frame_offset + sym.offset);
    case SymbolKind::function: return 0;
    case SymbolKind::module_var: break;
  }
  if (sym.space == Space::shared) {
    const std::int64_t offset = s.launch.layout->shared_offset[static_cast<std::size_t>(symbol)];
    return static_cast<std::uint64_t>(offset < 0 ? 0 : offset);
  }
  return s.launch.module->address(symbol);
}

std::uint64_t operand_address(ExecState& s, const Operand& op, int lane) {
  std::uint64_t address = static_cast<std::uint64_t>(op.imm);
  if (op.reg >= 0) address += s.regs[static_cast<std::ptrdiff_t>(op.reg) * kWarpLanes + lane];
  if (op.symbol >= 0) address += symbol_value(s, op.symbol);
  return address;
}

std::uint8_t* translate(ExecState& s, Space space, std::uint64_t address, std::uint32_t bytes, int lane,
                        Access access) {
  if (space == Space::generic) {
    switch (address & kTagMask) {
      case 0: space = Space::global; break;
      case kSharedTag: space = Space::shared; break;
      case kLocalTag: space = Space::local; break;
      case kParamTag: space = Space::param; break;
      case kMulticastTag:
        lane_fault(lane, Fault::Kind::memory,
                   "a plain " + access_text(access, bytes) + " at multicast address " + hex(address) +
                       " (multicast memory is reached with multimem.* only)");
      default: outside(lane, access, bytes, "at " + hex(address) + ", which is no address of any memory");
    }
    address &= ~kTagMask;
  }
  if (bytes > 1 && address % bytes != 0 && (bytes <= 16))
    lane_fault(lane, Fault::Kind::memory,
               "misaligned " + access_text(access, bytes) + " at " + hex(address) +
                   " (CUDA_ERROR_MISALIGNED_ADDRESS: it needs " + std::to_string(bytes) + "-byte alignment)");
  switch (space) {
    case Space::global:
    case Space::const_: {
      const MemoryMap& memory = s.machine.memory();
      if (const Region* region = memory.find(address, bytes)) {
        if (memory.ended_for(*region, s.launch.rank))
          after_call(lane, access, bytes, *region, s.launch.rank);
        auto* host = reinterpret_cast<std::uint8_t*>(address);
        if (s.machine.races()) race_access(s, host, bytes, lane, access, false);
        return host;
      }
      if (address < 4096)
        outside(lane, access, bytes, "at " + hex(address) + " (a null pointer)");
      outside(lane, access, bytes, "at " + hex(address) + ": " + memory.describe_miss(address, bytes));
    }
    case Space::shared:
    case Space::shared_cluster:
      if (address + bytes > s.block.shared_bytes || address + bytes < address)
        outside(lane, access, bytes,
                "at shared offset " + std::to_string(address) + ": the block has " +
                    std::to_string(s.block.shared_bytes) + " bytes of shared memory (" +
                    std::to_string(s.launch.layout->static_shared) + " static, " +
                    std::to_string(s.launch.dynamic_shared) + " dynamic from the plan's shared_bytes)");
      if (s.machine.races()) race_access(s, s.block.shared.get() + address, bytes, lane, access, false);
      return s.block.shared.get() + address;
    case Space::local:
      if (address + bytes > static_cast<std::uint64_t>(s.frame_stride) || address + bytes < address)
        outside(lane, access, bytes,
                "at local offset " + std::to_string(address) + ": the thread's frame has " +
                    std::to_string(s.frame_stride) + " bytes");
      return s.frames + static_cast<std::int64_t>(lane) * s.frame_stride + static_cast<std::int64_t>(address);
    case Space::param:
      if (access != Access::read)
        lane_fault(lane, Fault::Kind::memory, "a store to a kernel parameter (parameters are read-only)");
      if (address + bytes > s.launch.params.size())
        outside(lane, access, bytes,
                "at parameter offset " + std::to_string(address) + ": the parameters are " +
                    std::to_string(s.launch.params.size()) + " bytes");
      return s.launch.params.data() + address;
    default: break;
  }
  outside(lane, access, bytes, "in an unknown state space");
}

}  // namespace pkb::ptx
