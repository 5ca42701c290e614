// make_kernel_layout (see kernel_layout.h).
#include "harness/ptx/kernel_layout.h"

#include <algorithm>

namespace pkb::ptx {
namespace {

std::int64_t align_up(std::int64_t value, std::int64_t align) { return (value + align - 1) / align * align; }

// Shared variables named by the code of `function` (as an address or a value).
void shared_uses(const Program& program, const Function& function, std::vector<bool>& used) {
  for (std::int32_t pc = function.first_pc; pc < function.end_pc; ++pc) {
    const Instr& instr = program.code[static_cast<std::size_t>(pc)];
    for (int k = 0; k < instr.nops; ++k) {
      const Operand& op = instr.ops[k];
      if ((op.kind != Operand::Kind::addr && op.kind != Operand::Kind::symbol) || op.symbol < 0) continue;
      const Symbol& symbol = program.symbols[static_cast<std::size_t>(op.symbol)];
      if (symbol.kind == SymbolKind::module_var && symbol.space == Space::shared)
        used[static_cast<std::size_t>(op.symbol)] = true;
    }
  }
}

std::vector<int> callees(const Program& program, const Function& function) {
  std::vector<int> out;
  for (std::int32_t pc = function.first_pc; pc < function.end_pc; ++pc) {
    const Instr& instr = program.code[static_cast<std::size_t>(pc)];
    if (instr.flow != Flow::call) continue;
    const int callee = program.symbols[static_cast<std::size_t>(instr.ops[1].symbol)].function;
    if (std::find(out.begin(), out.end(), callee) == out.end()) out.push_back(callee);
  }
  return out;
}

}  // namespace

KernelLayout make_kernel_layout(const Program& program, int kernel) {
  KernelLayout layout;
  const std::size_t functions = program.functions.size();
  layout.reg_frame.assign(functions, -1);
  layout.frame_offset.assign(functions, -1);
  layout.shared_offset.assign(program.symbols.size(), -1);
  std::vector<int> order{kernel};
  for (std::size_t next = 0; next < order.size(); ++next)
    for (int callee : callees(program, program.functions[static_cast<std::size_t>(order[next])]))
      if (std::find(order.begin(), order.end(), callee) == order.end()) order.push_back(callee);
  std::vector<bool> used(program.symbols.size(), false);
  for (int f : order) {
    const Function& function = program.functions[static_cast<std::size_t>(f)];
    layout.reg_frame[static_cast<std::size_t>(f)] = layout.reg_slots;
    layout.reg_slots += function.end_reg - function.first_reg;
    layout.frame_offset[static_cast<std::size_t>(f)] = layout.frame_bytes;
    layout.frame_bytes = align_up(layout.frame_bytes + function.frame_end - function.frame_begin, 16);
    shared_uses(program, function, used);
  }
  if (layout.reg_slots == 0) layout.reg_slots = 1;
  std::int64_t offset = 0;
  std::int64_t dynamic_align = 16;
  for (std::size_t s = 0; s < program.symbols.size(); ++s) {
    if (!used[s]) continue;
    const Symbol& symbol = program.symbols[s];
    if (symbol.dynamic_shared) {
      dynamic_align = std::max<std::int64_t>(dynamic_align, symbol.align);
      continue;
    }
    offset = align_up(offset, std::max<std::int64_t>(1, symbol.align));
    layout.shared_offset[s] = offset;
    offset += static_cast<std::int64_t>(symbol.bytes);
  }
  offset = align_up(offset, dynamic_align);
  for (std::size_t s = 0; s < program.symbols.size(); ++s)
    if (used[s] && program.symbols[s].dynamic_shared) layout.shared_offset[s] = offset;
  layout.static_shared = static_cast<std::uint64_t>(offset);
  return layout;
}

}  // namespace pkb::ptx
