// A PTX module decoded once for execution: every function's instructions in one array (a pc is an
// index into it, so call and ret need no function table), registers numbered densely across the
// module (each function owns a contiguous range), symbols resolved to a kind and an offset, and
// source locations from `.loc` kept as chains (an inlined header function points at the
// candidate's line it was inlined into).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/ptx/ptx_types.h"

namespace pkb::ptx {

struct ExecState;
struct Instr;
/// Executes `instr` for the lanes of `mask` (guard already applied).
using Handler = void (*)(ExecState& state, const Instr& instr, std::uint32_t mask);

struct Operand {
  enum class Kind : std::uint8_t { none, reg, imm, sreg, vec, addr, symbol, label, sink };
  Kind kind = Kind::none;
  bool negate = false;     // "!%p": a negated predicate source
  std::uint8_t count = 0;  // vec: how many registers; addr: tensor coordinates (not kept)
  SReg sreg = SReg::tid_x;
  std::int32_t reg = -1;     // reg: the register; addr: the base register or -1; vec: first index
                             // into Program::vec_regs (an entry of -1 is the sink "_")
  std::int32_t symbol = -1;  // addr, symbol: index into Program::symbols; label: the target pc
  std::int64_t imm = 0;      // imm: the value's bits; addr: the byte offset
};

/// What the scheduler must do around an instruction besides calling its handler.
enum class Flow : std::uint8_t {
  simple,       // handler, then the next pc
  branch,       // bra (may split the lane group)
  branch_table, // brx.idx: each lane to the target its index picks (may split the lane group)
  call, ret, exit, trap, brkpt,
  barrier,      // bar.sync / bar.arrive / bar.red / barrier.*: the block's named barriers
  warp_sync,    // shfl.sync vote.sync match.sync redux.sync bar.warp.sync: a rendezvous of lanes
  spin_load,    // a strong load or an atomic: may be a spin wait (the warp parks on no change)
  nanosleep,
  mbarrier_wait,  // mbarrier.test_wait / try_wait: may park until the phase completes
  cp_async_wait,  // cp.async.wait_group / wait_all
  unsupported,  // decoded but not executable: ends the sample as not executed
};

struct Instr {
  Handler handler = nullptr;
  Flow flow = Flow::simple;
  std::uint16_t op = 0;  // the base opcode (Opcode in decode.h)
  Type type = Type::none;   // the instruction type (the destination's for cvt)
  Type type2 = Type::none;  // cvt's source type; setp's compare type lives in `type`; mma's A/B
  Type type3 = Type::none;  // mma's C
  std::uint8_t shape = 0;   // mma's shape (exec_matrix.cpp)
  Space space = Space::generic;
  Sem sem = Sem::weak;
  Scope scope = Scope::none;
  Round round = Round::none;
  Cmp cmp = Cmp::eq;
  BoolOp bool_op = BoolOp::none;
  std::uint8_t vec = 1;       // .v2 .v4 .v8
  std::uint8_t nops = 0;
  std::uint32_t mods = 0;     // Mod bits (decode.h)
  std::int32_t guard = -1;    // guard predicate register, or -1
  bool guard_negate = false;
  Operand ops[6];
  std::int32_t line = 0;     // PTX line
  std::int32_t loc = -1;     // innermost source location (Program::locs) or -1
  bool join = false;         // a branch target: lane groups may meet here
  std::int32_t aux = 0;      // per-opcode extra (a call's callee function, a barrier's count ...)
  std::string_view text;     // the opcode as written ("ld.global.nc.v4.u32"), for messages
};

struct SourceLoc {
  std::int32_t file = 0;     // index into Program::files
  std::int32_t line = 0;
  std::int32_t column = 0;
  std::int32_t inlined_at = -1;  // the location this one was inlined into, or -1
};

enum class SymbolKind : std::uint8_t {
  module_var,    // .global / .const / .shared at module scope, or a function's .shared
  kernel_param,  // a .param of an .entry: offset into the launch's parameter bytes
  frame,         // per-thread storage: .local variables, a .func's params, call-site .param
  function,
};

struct Symbol {
  std::string name;
  SymbolKind kind = SymbolKind::module_var;
  Space space = Space::global;
  std::uint32_t align = 1;
  std::uint64_t bytes = 0;
  bool dynamic_shared = false;  // `.extern .shared` array: the launch's dynamic shared memory
  std::vector<std::uint8_t> init;  // initial bytes of a .global / .const (empty: zero)
  std::int64_t offset = 0;  // kernel_param: byte offset; frame: offset in the thread's frame
  std::int32_t function = -1;  // function: index into Program::functions
};

struct Function {
  std::string name;
  bool entry = false;
  bool defined = false;          // has a body (not only a prototype)
  std::vector<std::int32_t> params;   // Symbol indices, in order
  std::vector<std::int32_t> returns;  // Symbol indices of a .func's return parameters
  std::uint32_t param_bytes = 0;      // .entry: the size of the parameter buffer
  std::int32_t first_pc = 0, end_pc = 0;
  std::int32_t first_reg = 0, end_reg = 0;      // the registers this function declares
  std::int64_t frame_begin = 0, frame_end = 0;  // its per-thread frame bytes (module-wide offsets)
  std::vector<std::int32_t> callees;            // functions it calls directly
  std::int32_t line = 0;
  std::uint32_t reqntid = 0;  // .reqntid / .maxntid product, 0 when absent
};

struct Program {
  std::vector<Instr> code;
  std::vector<std::int32_t> vec_regs;
  std::vector<Function> functions;
  std::vector<Symbol> symbols;
  std::vector<Type> reg_types;          // per register
  std::vector<std::string> reg_names;   // per register, for messages
  std::vector<std::string> files;       // .file paths by index
  std::vector<SourceLoc> locs;
  std::vector<std::string> notes;       // why an unsupported instruction is (Instr::aux)
  std::vector<std::vector<std::int32_t>> branch_tables;  // .branchtargets' pcs (brx.idx ops[1].imm)
  std::int64_t frame_bytes = 0;         // every function's frame, end to end
  std::string target;                   // ".target" (sm_90a)
  std::unique_ptr<std::string> text;    // the PTX text the string_views point into

  /// The function named `name`, or -1.
  int find_function(const std::string& name) const;
  /// "kernel.cu:17" (the candidate's line), with the innermost header line when it differs:
  /// "kernel.cu:17 (pkb/memory.cuh:63)". "" when the instruction has no location.
  std::string source_line(const Instr& instr) const;
};

/// Parses and decodes `ptx`. Throws ParseError (with the PTX line) for text it cannot read.
std::shared_ptr<const Program> load_program(std::string ptx);

}  // namespace pkb::ptx
