// A warp-collective instruction at its rendezvous: every participating lane's instruction and
// register frame (lanes may have arrived from different pcs), and the collectives implemented
// outside exec_warp_sync.cpp (the matrix instructions of exec_matrix.cpp and exec_wmma.cpp).
#pragma once

#include <cstdint>

#include "harness/ptx/decode.h"
#include "harness/ptx/exec_state.h"

namespace pkb::ptx {

/// Warp-sync op codes (Instr::aux) from here on are matrix instructions over the whole warp.
constexpr std::int32_t kWarpMatrixOps = 60;
/// From here on they are wmma instructions (exec_wmma.cpp).
constexpr std::int32_t kWarpWmmaOps = 70;

// Every lane's view for the collective: its group, its instruction, its registers.
struct Lanes {
  ExecState& s;
  std::uint32_t members = 0;
  const Instr* instr[kWarpLanes] = {};
  std::uint64_t* regs[kWarpLanes] = {};

  std::uint64_t read(int lane, int k) {
    const Operand& op = instr[lane]->ops[k];
    switch (op.kind) {
      case Operand::Kind::reg: return regs[lane][static_cast<std::ptrdiff_t>(op.reg) * kWarpLanes + lane];
      case Operand::Kind::imm: return static_cast<std::uint64_t>(op.imm);
      case Operand::Kind::sreg: return special_register(s, op.sreg, lane);
      default: return 0;
    }
  }
  bool read_pred(int lane, int k) { return (read(lane, k) != 0) != instr[lane]->ops[k].negate; }
  void write(int lane, int k, std::uint64_t value) {
    const Operand& op = instr[lane]->ops[k];
    if (op.kind == Operand::Kind::reg) regs[lane][static_cast<std::ptrdiff_t>(op.reg) * kWarpLanes + lane] = value;
  }
  bool pair(int lane) const { return instr[lane]->mods & kPairDst; }
  /// Element e of vector operand k (a register, or the sink: 0).
  std::uint64_t read_element(int lane, int k, int e) {
    const Operand& op = instr[lane]->ops[k];
    if (op.kind != Operand::Kind::vec) return e == 0 ? read(lane, k) : 0;
    const std::int32_t r = s.launch.program->vec_regs[static_cast<std::size_t>(op.reg + e)];
    return r < 0 ? 0 : regs[lane][static_cast<std::ptrdiff_t>(r) * kWarpLanes + lane];
  }
  void write_element(int lane, int k, int e, std::uint64_t value) {
    const Operand& op = instr[lane]->ops[k];
    if (op.kind != Operand::Kind::vec) {
      if (e == 0) write(lane, k, value);
      return;
    }
    const std::int32_t r = s.launch.program->vec_regs[static_cast<std::size_t>(op.reg + e)];
    if (r >= 0) regs[lane][static_cast<std::ptrdiff_t>(r) * kWarpLanes + lane] = value;
  }
  /// The address operand k names for `lane` (its own registers).
  std::uint64_t address(int lane, int k) {
    const Operand& op = instr[lane]->ops[k];
    std::uint64_t at = static_cast<std::uint64_t>(op.imm);
    if (op.reg >= 0) at += regs[lane][static_cast<std::ptrdiff_t>(op.reg) * kWarpLanes + lane];
    if (op.symbol >= 0) at += symbol_value(s, op.symbol);
    return at;
  }
};

/// mma.sync, ldmatrix, stmatrix and movmatrix (exec_matrix.cpp); wmma is passed on.
void matrix_collective(Lanes& lanes);
/// wmma.load, wmma.store and wmma.mma (exec_wmma.cpp).
void wmma_collective(Lanes& lanes);

}  // namespace pkb::ptx
