// Sparse embedding exchange: owner(i) = idx[i] mod W; pairs (idx[i], value[i]) are stably sorted by
// owner, counts are exchanged, then indices and rows go out with variable splits. Rank r returns
// the pairs with idx mod W == r (by source rank, then source position) in W*NNZ buffers padded
// with -1 / zero rows, and their count. Shapes:
// problems/067_gnn_sparse_embedding_all2all/problem.json.
#include "reference/gnn.h"
#include "reference/registry.h"

namespace pkb::ref::p067 {
namespace {

// Random indices and rows differ per rank and trial: a skipped exchange keeps only the rank's own
// pairs (wrong count and rows), and a stale trial changes every pair.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t nnz = ctx.dim("NNZ");
  at::Tensor idx = ctx.randint64(0, ctx.dim("V") - 1, {nnz});
  at::Tensor value = ctx.randn({nnz, ctx.dim("H")});
  return {{"idx", idx}, {"value", value}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const int world = comm.size();
  const at::Tensor& idx = in.at("idx");
  const at::Tensor& value = in.at("value");
  const auto [order, sends, recvs] = gnn::route_by_owner(comm, idx.remainder(world));
  const at::Tensor recv_idx = gnn::exchange(comm, idx.index_select(0, order), sends, recvs);
  const at::Tensor recv_value = gnn::exchange(comm, value.index_select(0, order), sends, recvs);

  const std::int64_t received = recv_idx.size(0), capacity = world * idx.size(0);
  at::Tensor padded_idx = at::full({capacity}, -1, idx.options());
  padded_idx.narrow(0, 0, received).copy_(recv_idx);
  at::Tensor padded_value = at::zeros({capacity, value.size(1)}, value.options());
  padded_value.narrow(0, 0, received).copy_(recv_value);
  return {{"recv_idx", padded_idx},
          {"recv_value", padded_value},
          {"recv_count", at::scalar_tensor(received, idx.options())}};
}

}  // namespace

PKB_REGISTER_REFERENCE("067_gnn_sparse_embedding_all2all", make_inputs, solve);

}  // namespace pkb::ref::p067
