// Sparse feature fetch: queries are stably sorted by owner min(id / (V/W), W - 1); counts and ids
// go to the owners, which send shard rows back (splits reversed); the sort is undone and
// out = rows @ proj_matrix (fp32 accumulation, one rounding to P).
// Shapes: problems/068_gnn_sparse_feature_fetch_projection/problem.json.
#include "reference/gnn.h"
#include "reference/matmul_p.h"
#include "reference/registry.h"

namespace pkb::ref::p068 {
namespace {

// Shards, projections and ids are random per rank and trial: ids spread over all owners, so a
// skipped exchange leaves about (W-1)/W of the rows wrong, and no owner can know in advance which
// rows a peer wants (upstream's fixed id formula would let a kernel skip the count and id exchanges).
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t shard_rows = ctx.dim("V") / ctx.world(), width = ctx.dim("E");
  at::Tensor shard = ctx.randn({shard_rows, width});
  at::Tensor proj = ctx.randn({width, width});
  at::Tensor ids = ctx.randint64(0, ctx.dim("V") - 1, {ctx.dim("Q")});
  return {{"local_embedding_shard", shard}, {"proj_matrix", proj}, {"input_node_ids", ids}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const std::int64_t rank = comm.rank(), world = comm.size();
  const at::Tensor& shard = in.at("local_embedding_shard");
  const at::Tensor& ids = in.at("input_node_ids");
  const std::int64_t shard_rows = shard.size(0);

  const at::Tensor owner = at::clamp_max(ids.div(shard_rows, "floor"), world - 1);
  const auto [order, sends, recvs] = gnn::route_by_owner(comm, owner);
  const at::Tensor requested = gnn::exchange(comm, ids.index_select(0, order), sends, recvs);
  const at::Tensor found = shard.index_select(0, requested - rank * shard_rows);
  const at::Tensor fetched = gnn::exchange(comm, found, recvs, sends);

  at::Tensor rows = at::empty_like(fetched);
  rows.index_copy_(0, order, fetched);  // sorted position p holds query order[p]
  return {{"out", matmul_p(rows, in.at("proj_matrix"))}};
}

}  // namespace

PKB_REGISTER_REFERENCE("068_gnn_sparse_feature_fetch_projection", make_inputs, solve);

}  // namespace pkb::ref::p068
