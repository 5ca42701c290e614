// Qualifiers and decode_instruction: the opcode's base picks the family decoder; anything no
// family takes, or takes only partly, becomes an unsupported instruction naming what is missing.
#include "harness/ptx/decode.h"

#include "harness/ptx/exec_state.h"

namespace pkb::ptx {
namespace {

// Qualifiers that steer caches or eviction and never change a result.
constexpr std::string_view kHints[] = {
    "ca", "cg", "cs", "lu", "cv", "wb", "wt", "L1::evict_normal", "L1::evict_unchanged",
    "L1::evict_first", "L1::evict_last", "L1::no_allocate", "L2::evict_normal", "L2::evict_first",
    "L2::evict_last", "L2::64B", "L2::128B", "L2::256B", "L2::cache_hint", "unified",
    "level::eviction_priority", "L2::evict_unchanged",
};

}  // namespace

Qualifiers::Qualifiers(std::string_view opcode) {
  std::size_t start = 0;
  bool first = true;
  while (start <= opcode.size()) {
    std::size_t dot = opcode.find('.', start);
    if (dot == std::string_view::npos) dot = opcode.size();
    const std::string part(opcode.substr(start, dot - start));
    if (first) base_ = part;
    else if (!part.empty()) parts_.push_back(part);
    first = false;
    start = dot + 1;
  }
}

bool Qualifiers::take(std::string_view name) {
  for (auto it = parts_.begin(); it != parts_.end(); ++it)
    if (*it == name) {
      parts_.erase(it);
      return true;
    }
  return false;
}

std::vector<Type> Qualifiers::take_types() {
  std::vector<Type> types;
  for (auto it = parts_.begin(); it != parts_.end();) {
    const Type type = parse_type(*it);
    if (type != Type::none) {
      types.push_back(type);
      it = parts_.erase(it);
    } else {
      ++it;
    }
  }
  return types;
}

int Qualifiers::take_one(std::initializer_list<std::string_view> names) {
  int index = 0;
  for (std::string_view name : names) {
    if (take(name)) return index;
    ++index;
  }
  return -1;
}

void Qualifiers::drop_hints() {
  for (std::string_view hint : kHints) take(hint);
}

std::string Qualifiers::leftover() const {
  std::string text;
  for (const auto& part : parts_) text += "." + part;
  return text;
}

void narrow_f32_immediates(Instr& instr) {
  for (int k = 1; k < instr.nops; ++k) {
    Operand& op = instr.ops[k];
    if (op.kind != Operand::Kind::imm || op.sreg != SReg::count) continue;  // count: f64 bits
    op.imm = static_cast<std::int64_t>(bits_of(static_cast<float>(as_f64(static_cast<std::uint64_t>(op.imm)))));
    op.sreg = SReg::tid_x;
  }
}

void mark_unsupported(DecodeInput& input, Instr& instr, const std::string& why) {
  instr.flow = Flow::unsupported;
  instr.handler = nullptr;
  instr.aux = static_cast<std::int32_t>(input.program.notes.size());
  input.program.notes.push_back("the simulated node does not implement `" + std::string(instr.text) + "`" +
                                (why.empty() ? "" : " (" + why + ")"));
}

void decode_instruction(DecodeInput& input, Instr& instr) {
  using Decoder = bool (*)(DecodeInput&, Instr&);
  static constexpr Decoder kFamilies[] = {
      decode_integer, decode_logic,  decode_float,   decode_half,   decode_compare,
      decode_convert, decode_move,   decode_memory,  decode_atomic, decode_control,
      decode_warp,    decode_matrix, decode_wmma,    decode_async,  decode_multimem,
  };
  // .L2::cache_hint: the last operand is a cache policy (createpolicy), a hint that changes no
  // result; the families never see it, so their operand counts hold.
  if (input.q.take("L2::cache_hint") && instr.nops > 0 &&
      (instr.ops[instr.nops - 1].kind == Operand::Kind::reg || instr.ops[instr.nops - 1].kind == Operand::Kind::imm)) {
    --instr.nops;
    instr.ops[instr.nops] = Operand{};
    input.ops.pop_back();
  }
  for (Decoder decoder : kFamilies)
    if (decoder(input, instr)) {
      if (instr.flow != Flow::unsupported && !input.q.empty())
        mark_unsupported(input, instr, "qualifiers " + input.q.leftover());
      return;
    }
  mark_unsupported(input, instr, "");
}

}  // namespace pkb::ptx
