// Reduction orders of the simulated world (docs/ADDING_A_PROBLEM.md, step 5): the reference order and the orders a
// correct kernel may legitimately use, so that validate can prove a check tolerates them.
#include "reference/comm/sim_reduce.h"

#include "src/common/error.h"

namespace pkb::ref {
namespace {

at::ScalarType accumulate_type(at::ScalarType dtype) {
  if (dtype == at::kDouble) return at::kDouble;
  if (at::isFloatingType(dtype)) return at::kFloat;
  return at::kLong;  // integer sums are exact in int64
}

at::Tensor sum_in_order(const std::vector<at::Tensor>& parts, at::ScalarType acc_type) {
  at::Tensor acc = parts[0].to(acc_type, /*non_blocking=*/false, /*copy=*/true);
  for (std::size_t index = 1; index < parts.size(); ++index) acc.add_(parts[index].to(acc_type));
  return acc;
}

at::Tensor sum_tree(std::vector<at::Tensor> level, at::ScalarType acc_type) {
  for (auto& part : level) part = part.to(acc_type);
  while (level.size() > 1) {
    std::vector<at::Tensor> next;
    for (std::size_t index = 0; index + 1 < level.size(); index += 2)
      next.push_back(level[index] + level[index + 1]);
    if (level.size() % 2 == 1) next.push_back(level.back());
    level = std::move(next);
  }
  return level[0];
}

// Every partial sum is rounded to the tensor's dtype, as a ring all-reduce in bf16 does.
at::Tensor sum_hop_rounded(const std::vector<at::Tensor>& parts, at::ScalarType acc_type) {
  const at::ScalarType dtype = parts[0].scalar_type();
  at::Tensor acc = parts[0].clone();
  for (std::size_t index = 1; index < parts.size(); ++index)
    acc = (acc.to(acc_type) + parts[index].to(acc_type)).to(dtype);
  return acc.to(acc_type);
}

}  // namespace

at::Tensor combine(const std::vector<at::Tensor>& parts, ReduceOp op, SimMode mode) {
  PKB_ASSERT(!parts.empty(), "combine needs at least one part");
  const at::ScalarType dtype = parts[0].scalar_type();
  if (op == ReduceOp::max || op == ReduceOp::min) {
    at::Tensor acc = parts[0].clone();
    for (std::size_t index = 1; index < parts.size(); ++index)
      acc = op == ReduceOp::max ? at::maximum(acc, parts[index]) : at::minimum(acc, parts[index]);
    return acc;
  }
  const at::ScalarType acc_type = accumulate_type(dtype);
  at::Tensor sum;
  switch (mode) {
    case SimMode::reversed:
      sum = sum_in_order({parts.rbegin(), parts.rend()}, acc_type);
      break;
    case SimMode::tree:
      sum = sum_tree(parts, acc_type);
      break;
    case SimMode::hop_rounded:
      sum = sum_hop_rounded(parts, acc_type);
      break;
    default:
      sum = sum_in_order(parts, acc_type);
  }
  if (op == ReduceOp::avg) {
    const auto count = static_cast<std::int64_t>(parts.size());
    sum = at::isFloatingType(acc_type) ? sum / static_cast<double>(count)
                                       : at::div(sum, count, "trunc");
  }
  return sum.to(dtype);
}

}  // namespace pkb::ref
