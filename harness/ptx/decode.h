// From a parsed statement to an executable Instr: the opcode split into its qualifiers, which each
// instruction family's decoder reads (decode_<family> in the exec_<family>.cpp files), choosing
// the handler once. A qualifier no decoder took, or an opcode pkb does not implement, gives an
// Instr with Flow::unsupported: it stops the simulation only if a thread reaches it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/ptx/program.h"

namespace pkb::ptx {

/// Modifier bits of Instr::mods (families give some of them their own meaning, noted there).
enum Mod : std::uint32_t {
  kFtz = 1u << 0,
  kSat = 1u << 1,
  kApprox = 1u << 2,
  kFull = 1u << 3,
  kLo = 1u << 4,
  kHi = 1u << 5,
  kWide = 1u << 6,
  kCarryOut = 1u << 7,  // .cc
  kCarryIn = 1u << 8,   // addc / subc / madc
  kUni = 1u << 9,
  kNoFtz = 1u << 10,
  kSatFinite = 1u << 11,
  kRelu = 1u << 12,
  kNaN = 1u << 13,
  kPairDst = 1u << 14,  // the first operand was "a|b": ops[0] and ops[1] are both destinations
  kXorSign = 1u << 15,
  kAbs = 1u << 16,
  kShiftAmt = 1u << 17,
  kClamp = 1u << 18,
  kWrap = 1u << 19,
  kLeft = 1u << 20,
  kAligned = 1u << 21,
  kTrans = 1u << 22,
  kNc = 1u << 23,
};

/// The qualifiers of one opcode, consumed by the decoders; what is left at the end was not
/// understood.
class Qualifiers {
 public:
  explicit Qualifiers(std::string_view opcode);
  const std::string& base() const { return base_; }
  /// Removes `name` if present.
  bool take(std::string_view name);
  /// Removes and returns every type qualifier, in order.
  std::vector<Type> take_types();
  /// Removes the first qualifier of `names` present; returns its index or -1.
  int take_one(std::initializer_list<std::string_view> names);
  /// Removes cache and eviction hints that do not change what an instruction computes.
  void drop_hints();
  bool empty() const { return parts_.empty(); }
  std::string leftover() const;

 private:
  std::string base_;
  std::vector<std::string> parts_;
};

struct DecodeInput {
  Qualifiers q;
  std::vector<Operand>& ops;  // as parsed; a decoder may rewrite them
  Program& program;
};

/// Fills `instr` (its operands are already set from `input.ops`).
void decode_instruction(DecodeInput& input, Instr& instr);

/// The state space and memory-ordering qualifiers of an access (exec_memory.cpp).
Space decode_space(Qualifiers& q);
Sem decode_sem(Qualifiers& q, Scope& scope);

/// An f64 literal (0d...) among the sources of an f32 instruction, narrowed to f32 bits once.
void narrow_f32_immediates(Instr& instr);

/// Marks `instr` as unsupported; `why` is kept in Program::notes for the message.
void mark_unsupported(DecodeInput& input, Instr& instr, const std::string& why);

// Family decoders: true when `input.q.base()` belongs to the family (then `instr` is decoded or
// marked unsupported). Each lives beside its handlers.
bool decode_integer(DecodeInput& input, Instr& instr);
bool decode_logic(DecodeInput& input, Instr& instr);
bool decode_float(DecodeInput& input, Instr& instr);
bool decode_half(DecodeInput& input, Instr& instr);
bool decode_compare(DecodeInput& input, Instr& instr);
bool decode_convert(DecodeInput& input, Instr& instr);
bool decode_move(DecodeInput& input, Instr& instr);
bool decode_memory(DecodeInput& input, Instr& instr);
bool decode_atomic(DecodeInput& input, Instr& instr);
bool decode_control(DecodeInput& input, Instr& instr);
bool decode_warp(DecodeInput& input, Instr& instr);
bool decode_matrix(DecodeInput& input, Instr& instr);
bool decode_wmma(DecodeInput& input, Instr& instr);
bool decode_async(DecodeInput& input, Instr& instr);
bool decode_multimem(DecodeInput& input, Instr& instr);

}  // namespace pkb::ptx
