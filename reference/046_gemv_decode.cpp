// Vocabulary-parallel decode logits: local_r = P(P(h @ Wr^T) + b_r) of shape (ntok, V_loc);
// logits = [local_0 | local_1 | ... | local_{W-1}] along the vocabulary (column) dimension.
// Shapes: problems/046_gemv_decode/problem.json.
#include <ATen/CPUGeneratorImpl.h>

#include "reference/matmul_p.h"
#include "reference/registry.h"

namespace pkb::ref::p046 {
namespace {

constexpr int kProblemId = 46;

// Shared seed (rank 0's generator for the trial): every rank draws the same hidden states and
// full weight and bias, and keeps its own rows, so every column block differs and a skipped
// gather leaves the other ranks' blocks wrong.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t hid = ctx.dim("hid"), v_loc = ctx.dim("V_loc");
  at::Generator shared = at::detail::createCPUGenerator(input_seed(kProblemId, 0, ctx.trial()));
  const auto fp32 = at::TensorOptions().dtype(at::kFloat);
  const at::Tensor hidden = at::randn({ctx.dim("ntok"), hid}, shared, fp32);
  const at::Tensor weight = at::randn({ctx.world() * v_loc, hid}, shared, fp32);
  const at::Tensor bias = at::randn({ctx.world() * v_loc}, shared, fp32);
  const std::int64_t start = ctx.rank() * v_loc;
  return {{"hidden_states", ctx.place(hidden, ctx.dtype())},
          {"weight_shard", ctx.place(weight.slice(0, start, start + v_loc), ctx.dtype())},
          {"bias_shard", ctx.place(bias.slice(0, start, start + v_loc), ctx.dtype())}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& weight = in.at("weight_shard");
  // Two roundings, as upstream: the GEMM's output, then the bias add.
  const at::Tensor local =
      (matmul_p(in.at("hidden_states"), weight.t()) + in.at("bias_shard")).contiguous();
  at::Tensor parts = at::empty({comm.size(), local.size(0), local.size(1)}, local.options());
  comm.all_gather(parts, local);
  return {{"logits", parts.permute({1, 0, 2}).reshape({local.size(0), -1})}};
}

}  // namespace

PKB_REGISTER_REFERENCE("046_gemv_decode", make_inputs, solve);

}  // namespace pkb::ref::p046
