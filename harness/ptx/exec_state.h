// What an instruction handler sees: the lane group it runs for, that group's registers and
// per-thread frames, the block and launch it belongs to, and the machine (memory, clock). Also
// the small helpers every handler uses: reading an operand for a lane, writing a register,
// looping over the lanes of a mask, and bit casts. Registers are 64-bit slots; a narrower value
// sits in the low bits and readers truncate to the instruction's type.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "harness/ptx/lane_bits.h"
#include "harness/ptx/machine.h"

namespace pkb::ptx {

struct ExecState {
  Machine& machine;
  Warp& warp;
  Block& block;
  Launch& launch;
  LaneGroup* group = nullptr;
  std::uint64_t* regs = nullptr;   // this group's register frame: regs[reg * 32 + lane]
  std::uint8_t* frames = nullptr;  // warp.frames (a recursive call may move them)
  std::int64_t frame_stride = 0;   // bytes of one lane's frame: warp.frame_stride
  const Instr* instr = nullptr;
  // Filled by the handlers of Flow::spin_load for the scheduler's spin detection.
  std::uint64_t load_hash = 0;
  std::vector<std::uint64_t> loaded_words;
  // Special registers and other computed sources, materialized per operand position.
  std::uint64_t scratch[6][kWarpLanes];

  ExecState(Machine& m, Warp& w)
      : machine(m), warp(w), block(*w.block), launch(*w.block->launch), frames(w.frames.get()),
        frame_stride(w.frame_stride) {}
};

/// One source operand, readable per lane without a branch: p[lane & m] (m = 0 for immediates).
struct Src {
  const std::uint64_t* p;
  std::uint32_t m;
  std::uint64_t operator[](int lane) const { return p[lane & m]; }
};

/// The value of a special register for `lane`.
std::uint64_t special_register(ExecState& s, SReg sreg, int lane);
/// The value of a symbol used as an operand (`mov.u64 %rd, smem`): its address in its own space.
std::uint64_t symbol_value(ExecState& s, int symbol);

inline Src source(ExecState& s, const Instr& in, int k) {
  const Operand& op = in.ops[k];
  switch (op.kind) {
    case Operand::Kind::reg: return {s.regs + static_cast<std::ptrdiff_t>(op.reg) * kWarpLanes, 31};
    case Operand::Kind::imm: return {reinterpret_cast<const std::uint64_t*>(&op.imm), 0};
    default: break;
  }
  // Special registers and symbol addresses: computed for every lane (rare outside mov).
  std::uint64_t* out = s.scratch[k];
  if (op.kind == Operand::Kind::sreg) {
    for (int lane = 0; lane < kWarpLanes; ++lane) out[lane] = special_register(s, op.sreg, lane);
    return {out, 31};
  }
  out[0] = op.kind == Operand::Kind::symbol ? symbol_value(s, op.symbol) : 0;
  return {out, 0};
}

inline std::uint64_t* dest(ExecState& s, const Instr& in, int k) {
  return s.regs + static_cast<std::ptrdiff_t>(in.ops[k].reg) * kWarpLanes;
}

template <class F>
inline void each_lane(std::uint32_t mask, F&& f) {
  if (mask == 0xFFFFFFFFu) {
    for (int lane = 0; lane < kWarpLanes; ++lane) f(lane);
  } else {
    while (mask) {
      const int lane = __builtin_ctz(mask);
      mask &= mask - 1;
      f(lane);
    }
  }
}

inline float as_f32(std::uint64_t v) {
  const auto u = static_cast<std::uint32_t>(v);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline double as_f64(std::uint64_t v) {
  double d;
  std::memcpy(&d, &v, 8);
  return d;
}
inline std::uint64_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline std::uint64_t bits_of(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}

// ---- memory (exec_memory_access.cpp)
enum class Access : std::uint8_t { read, write, atomic };

/// The byte address an address operand names for `lane`, in the instruction's state space
/// (a symbol contributes its address in that space).
std::uint64_t operand_address(ExecState& s, const Operand& op, int lane);
/// Host memory for [address, address + bytes) in `space`, for `lane`: checked against the
/// regions, the block's shared memory, the lane's frame or the parameters; throws LaneFault.
std::uint8_t* translate(ExecState& s, Space space, std::uint64_t address, std::uint32_t bytes,
                        int lane, Access access);
/// After a store or atomic: wakes groups spinning on the bytes written.
inline void wrote(ExecState& s, const std::uint8_t* host, std::uint32_t bytes) {
  s.machine.notify_write(reinterpret_cast<std::uint64_t>(host), bytes);
}

[[noreturn]] void lane_fault(int lane, Fault::Kind kind, const std::string& message);

// ---- the memory model's hooks (exec_race.cpp); no-ops under MemoryModel::sc
/// One lane's access of host memory (global or shared) for the instruction running (s.instr).
void race_access(ExecState& s, const std::uint8_t* host, std::uint32_t bytes, int lane, Access access,
                 bool multicast);
/// Before the lanes of a st / atom / red / multimem with .release or .acq_rel.
void race_release(ExecState& s, const Instr& in);
/// Instr::aux of fences: an ordering fence (fence.sc, fence.acq_rel, membar) or fence.proxy.alias.
constexpr std::int32_t kFenceOrder = 1;
constexpr std::int32_t kFenceAlias = 2;
void fence(ExecState& s, const Instr& in, std::uint32_t mask);
/// The fault of an access by `rank` to `region` of a rank whose call has ended.
[[noreturn]] void after_call(int lane, Access access, std::uint32_t bytes, const Region& region, int rank);

}  // namespace pkb::ptx
