// 2-D FSDP x TP SwiGLU MLP: gather W1, W2 (dim 0) and W3 (dim 1) over the strided FSDP group,
// y_p = P(P(P(silu(P(x W1))) * P(x W2)) W3) on this rank's Dff slice, y = sum of y_p over the
// contiguous TP group (in P). Shapes and groups: problems/048_fsdp_and_tp/problem.json.
#include <ATen/CPUGeneratorImpl.h>

#include "reference/matmul_p.h"
#include "reference/registry.h"

namespace pkb::ref::p048 {
namespace {

constexpr int kProblemId = 48;

// Shared seed (rank 0's generator for the trial): every rank draws the full x, W1, W2, W3 and
// keeps its blocks, so all blocks differ; a skipped gather loses other ranks' weight blocks and
// a skipped TP all-reduce keeps one Dff slice's partial sum.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t world = ctx.world(), n_tp = world >= 4 ? 2 : 1, n_fsdp = world / n_tp;
  const std::int64_t tp = ctx.rank() % n_tp, fs = ctx.rank() / n_tp;
  const std::int64_t batch = ctx.dim("B"), d = ctx.dim("D"), d_ff = ctx.dim("Dff");
  const std::int64_t rows = batch / n_fsdp, d_blk = d / n_fsdp, ff_blk = d_ff / n_tp;
  at::Generator shared = at::detail::createCPUGenerator(input_seed(kProblemId, 0, ctx.trial()));
  const auto fp32 = at::TensorOptions().dtype(at::kFloat);
  const at::Tensor x = at::randn({batch, d}, shared, fp32);
  const at::Tensor w1 = at::randn({d, d_ff}, shared, fp32);
  const at::Tensor w2 = at::randn({d, d_ff}, shared, fp32);
  const at::Tensor w3 = at::randn({d_ff, d}, shared, fp32);
  const auto block = [&](const at::Tensor& t, std::int64_t r0, std::int64_t nr, std::int64_t c0,
                         std::int64_t nc) {
    return ctx.place(t.slice(0, r0, r0 + nr).slice(1, c0, c0 + nc).contiguous(), ctx.dtype());
  };
  return {{"x_local", ctx.place(x.slice(0, fs * rows, (fs + 1) * rows), ctx.dtype())},
          {"W1_shard", block(w1, fs * d_blk, d_blk, tp * ff_blk, ff_blk)},
          {"W2_shard", block(w2, fs * d_blk, d_blk, tp * ff_blk, ff_blk)},
          {"W3_shard", block(w3, tp * ff_blk, ff_blk, fs * d_blk, d_blk)}};
}

// list all_gather over the group, concatenated along `dim`.
at::Tensor gather(Comm& group, const at::Tensor& shard, int64_t dim) {
  at::Tensor parts = at::empty({group.size(), shard.size(0), shard.size(1)}, shard.options());
  group.all_gather(parts, shard.contiguous());
  return at::cat(parts.unbind(0), dim);
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  Comm& tp_group = comm.group("tp");
  Comm& fsdp_group = comm.group("fsdp");
  const at::Tensor& x = in.at("x_local");
  const at::ScalarType dtype = x.scalar_type();
  const at::ScalarType acc = at::promote_types(dtype, at::kFloat);

  const at::Tensor w1 = gather(fsdp_group, in.at("W1_shard"), 0);
  const at::Tensor w2 = gather(fsdp_group, in.at("W2_shard"), 0);
  const at::Tensor w3 = gather(fsdp_group, in.at("W3_shard"), 1);
  const at::Tensor x1 = matmul_p(x, w1);
  const at::Tensor x2 = matmul_p(x, w2);
  const at::Tensor activated = at::silu(x1.to(acc)).to(dtype);
  const at::Tensor z = (activated.to(acc) * x2.to(acc)).to(dtype);
  at::Tensor y = matmul_p(z, w3).contiguous();
  tp_group.all_reduce(y, ReduceOp::sum);
  return {{"y", y}};
}

}  // namespace

PKB_REGISTER_REFERENCE("048_fsdp_and_tp", make_inputs, solve);

}  // namespace pkb::ref::p048
