// GNN feature exchange: g = local_features[seed_inverse_ids] (T, H) is sent by a rank-relative
// all-to-all: on rank r, list position i is peer (r + i) mod W, so g chunk i (counts_received[i]
// rows) goes to peer (r + i) mod W and out chunk i (counts_sent[i] rows) comes from it.
// Shapes: problems/065_gnn_feature_exchange_all2all/problem.json.
#include "reference/gnn.h"
#include "reference/registry.h"

namespace pkb::ref::p065 {
namespace {

// Features and ids differ per rank and trial, so a skipped exchange (peers' chunks zero), a
// standard instead of a rotated all-to-all, or a stale trial all change the output.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t rows = ctx.dim("T"), seeds = 3 * rows / 4;
  at::Tensor features = ctx.randn({seeds, ctx.dim("H")});
  at::Tensor ids = ctx.randint64(0, seeds - 1, {rows});
  at::Tensor counts = ctx.to_device(at::full({ctx.world()}, rows / ctx.world(), at::kLong));
  return {{"local_features", features},
          {"seed_inverse_ids", ids},
          {"counts_sent", counts},
          {"counts_received", counts.clone()}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor gathered = in.at("local_features").index_select(0, in.at("seed_inverse_ids"));
  // Upstream's names are reversed: the gathered rows are split by counts_received.
  return {{"out", gnn::relative_exchange(comm, gathered, gnn::host_list(in.at("counts_received")),
                                         gnn::host_list(in.at("counts_sent")))}};
}

}  // namespace

PKB_REGISTER_REFERENCE("065_gnn_feature_exchange_all2all", make_inputs, solve);

}  // namespace pkb::ref::p065
