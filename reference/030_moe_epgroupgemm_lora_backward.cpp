// LoRA adapter gradients summed over the expert-parallel group: g1, g2 (R, N) and g3 (N, R) are
// each all-reduced (sum) in P. Upstream reduces in place; pkb declares them inout, so the
// reference reduces copies. Shapes: problems/030_moe_epgroupgemm_lora_backward/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p030 {
namespace {

// Zero-mean and different on every rank: a rank that skips a reduction returns its own gradient,
// about sqrt(W) times smaller than the sum and uncorrelated with it.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t lora_rank = ctx.dim("R"), features = ctx.dim("N");
  at::Tensor g1 = ctx.randn({lora_rank, features});
  at::Tensor g2 = ctx.randn({lora_rank, features});
  at::Tensor g3 = ctx.randn({features, lora_rank});
  return {{"g1", g1}, {"g2", g2}, {"g3", g3}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  Tensors out;
  for (const char* name : {"g1", "g2", "g3"}) {
    at::Tensor summed = in.at(name).clone();
    comm.all_reduce(summed, ReduceOp::sum);
    out.set(name, summed);
  }
  return out;
}

}  // namespace

PKB_REGISTER_REFERENCE("030_moe_epgroupgemm_lora_backward", make_inputs, solve);

}  // namespace pkb::ref::p030
