// Gradient-accumulation loss normalisation: loss_sum = sum over ranks of P(loss * local),
// normalized_loss = loss_sum / global, grad_loss = (g_norm * local) / global + g_sum * local,
// with the counts local and global converted to P and every step rounded to P.
// Shapes: problems/023_grad_acc_loss/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p023 {
namespace {

// loss = k/16 with k in 1..256/W and M * N a power of two: every partial and partial sum is
// exact in bf16, so the sum does not depend on the reduction order. Positive on every rank, so
// a rank that skips the all-reduce returns less than the total. grad_loss_sum is k/64 with k in
// 1..4, drawn per trial (a fixed 0 let an answer that ignores it pass), exact in bf16.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t tokens = ctx.dim("M") * ctx.dim("N");
  return {
      {"loss", ctx.randint(1, 256 / ctx.world(), {}) / 16},
      {"local_valid", ctx.place(at::scalar_tensor(tokens, at::kLong), at::kLong)},
      {"global_valid", ctx.place(at::scalar_tensor(ctx.world() * tokens, at::kLong), at::kLong)},
      {"grad_normalized_loss", ctx.place(at::ones({}), ctx.dtype())},
      {"grad_loss_sum", ctx.randint(1, 4, {}) / 64}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  at::Tensor loss = in.at("loss");
  const at::ScalarType dtype = loss.scalar_type();
  // Upstream's guard for a rank without valid tokens, whose mean loss may be NaN.
  if (in.at("local_valid").item<std::int64_t>() == 0) loss = at::nan_to_num(loss);
  const at::Tensor local = in.at("local_valid").to(dtype);
  const at::Tensor global = in.at("global_valid").to(dtype);

  at::Tensor loss_sum = loss * local;
  comm.all_reduce(loss_sum, ReduceOp::sum);
  const at::Tensor normalized_loss = loss_sum / global;
  const at::Tensor grad_loss =
      in.at("grad_normalized_loss") * local / global + in.at("grad_loss_sum") * local;
  return {{"normalized_loss", normalized_loss}, {"loss_sum", loss_sum}, {"grad_loss", grad_loss}};
}

}  // namespace

PKB_REGISTER_REFERENCE("023_grad_acc_loss", make_inputs, solve);

}  // namespace pkb::ref::p023
