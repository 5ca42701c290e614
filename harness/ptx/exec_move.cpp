// mov: registers, immediates, special registers (exec_special.cpp), the address of a variable in
// its state space, and vector packing and unpacking (element 0 is the low part:
// `mov.b32 {lo, hi}, r`).
#include "harness/ptx/decode.h"
#include "harness/ptx/lane_values.h"

namespace pkb::ptx {
namespace {

void move(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Src a = source(s, in, 1);
  std::uint64_t* d = dest(s, in, 0);
  const std::uint64_t keep = in.aux == 64 ? ~0ull : (1ull << in.aux) - 1;
  each_lane(mask, [&](int lane) { d[lane] = a[lane] & keep; });
}

// mov.bN d, {a, b, ...}: element e at bits [e * width, (e + 1) * width).
void pack(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Operand& vec = in.ops[1];
  const auto& regs = s.launch.program->vec_regs;
  const int width = in.aux / vec.count;
  const std::uint64_t keep = width == 64 ? ~0ull : (1ull << width) - 1;
  std::uint64_t* d = dest(s, in, 0);
  each_lane(mask, [&](int lane) {
    std::uint64_t out = 0;
    for (int e = 0; e < vec.count; ++e) {
      const std::int32_t r = regs[static_cast<std::size_t>(vec.reg + e)];
      if (r < 0) continue;
      out |= (s.regs[static_cast<std::ptrdiff_t>(r) * kWarpLanes + lane] & keep) << (e * width);
    }
    d[lane] = out;
  });
}

void unpack(ExecState& s, const Instr& in, std::uint32_t mask) {
  const Operand& vec = in.ops[0];
  const auto& regs = s.launch.program->vec_regs;
  const int width = in.aux / vec.count;
  const std::uint64_t keep = width == 64 ? ~0ull : (1ull << width) - 1;
  const Src a = source(s, in, 1);
  each_lane(mask, [&](int lane) {
    const std::uint64_t value = a[lane];
    for (int e = 0; e < vec.count; ++e) {
      const std::int32_t r = regs[static_cast<std::size_t>(vec.reg + e)];
      if (r >= 0) s.regs[static_cast<std::ptrdiff_t>(r) * kWarpLanes + lane] = (value >> (e * width)) & keep;
    }
  });
}

}  // namespace

bool decode_move(DecodeInput& input, Instr& instr) {
  Qualifiers& q = input.q;
  if (q.base() != "mov") return false;
  const std::vector<Type> types = q.take_types();
  if (types.size() != 1 || instr.nops != 2) {
    mark_unsupported(input, instr, "form");
    return true;
  }
  instr.type = types[0];
  if (instr.type == Type::f32) narrow_f32_immediates(instr);
  instr.aux = instr.type == Type::pred ? 64 : 8 * type_bytes(instr.type);
  if (instr.type == Type::b128) {
    mark_unsupported(input, instr, ".b128");
    return true;
  }
  if (instr.ops[1].kind == Operand::Kind::vec) instr.handler = pack;
  else if (instr.ops[0].kind == Operand::Kind::vec) instr.handler = unpack;
  else if (instr.ops[0].kind == Operand::Kind::reg) instr.handler = move;
  if (instr.ops[1].kind == Operand::Kind::label) instr.handler = nullptr;  // a code address
  if (!instr.handler) mark_unsupported(input, instr, "operands");
  return true;
}

}  // namespace pkb::ptx
