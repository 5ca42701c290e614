// Backward of the GNN feature exchange: grad_output chunk i (counts_sent[i] rows) goes to peer
// (r + i) mod W and u chunk i (counts_received[i] rows) comes from it (rank-relative lists);
// then grad_input[seed_inverse_ids[j]] += u[j], from zeros. All fp32 whatever P is.
// Shapes: problems/066_gnn_feature_exchange_all2all_backward/problem.json.
#include "reference/gnn.h"
#include "reference/registry.h"

namespace pkb::ref::p066 {
namespace {

// Gradients and ids differ per rank and trial, so a skipped exchange (peers' rows zero), a
// standard instead of a rotated all-to-all, or a stale trial all change the output.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t rows = ctx.dim("T"), seeds = rows / 2;
  at::Tensor grad = ctx.place(at::randn({rows, ctx.dim("H")}, ctx.generator()), at::kFloat);
  at::Tensor ids = ctx.randint64(0, seeds - 1, {rows});
  at::Tensor counts = ctx.to_device(at::full({ctx.world()}, rows / ctx.world(), at::kLong));
  return {{"grad_output", grad},
          {"seed_inverse_ids", ids},
          {"seed_size", ctx.to_device(at::scalar_tensor(seeds, at::kLong))},
          {"counts_sent", counts},
          {"counts_received", counts.clone()}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& grad = in.at("grad_output");
  const at::Tensor u = gnn::relative_exchange(comm, grad, gnn::host_list(in.at("counts_sent")),
                                              gnn::host_list(in.at("counts_received")));
  const std::int64_t seeds = in.at("seed_size").item<std::int64_t>();
  at::Tensor grad_input = at::zeros({seeds, grad.size(1)}, grad.options());
  grad_input.index_add_(0, in.at("seed_inverse_ids"), u);
  return {{"grad_input", grad_input}};
}

}  // namespace

PKB_REGISTER_REFERENCE("066_gnn_feature_exchange_all2all_backward", make_inputs, solve);

}  // namespace pkb::ref::p066
