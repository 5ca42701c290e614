// Row-sharded embedding lookup: rank r holds rows r*M .. r*M+M-1 of the global table; each rank
// returns out[k] = table[indices[k]], fetching every row from its owner with three all-to-alls
// (request counts, requested indices, rows). Shapes: problems/010_embedding_lookup/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p010 {
namespace {

std::vector<std::int64_t> to_vector(const at::Tensor& counts) {
  const at::Tensor host = counts.to(at::kCPU).contiguous();
  return {host.data_ptr<std::int64_t>(), host.data_ptr<std::int64_t>() + host.numel()};
}

// Indices are uniform over the whole table, so nearly every rank asks every other rank for rows
// (a skipped exchange leaves them zero), and table rows are random, so a wrong row shows.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t rows = ctx.dim("M");
  at::Tensor indices = ctx.randint64(0, ctx.world() * rows - 1, {rows});
  return {{"indices", indices}, {"local_shard", ctx.randn({rows, ctx.dim("N")})}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& indices = in.at("indices");
  const at::Tensor& shard = in.at("local_shard");
  const std::int64_t rows = shard.size(0);

  // Group the requests by owner, stably, and tell every owner how many to expect.
  const at::Tensor owner = at::div(indices, rows, "floor");
  const at::Tensor order = std::get<1>(at::sort(owner, /*stable=*/true, 0, false));
  const at::Tensor send_indices = indices.index_select(0, order);
  const at::Tensor send_counts = at::bincount(owner, {}, comm.size());
  at::Tensor recv_counts = at::empty_like(send_counts);
  comm.all_to_all(recv_counts, send_counts, {}, {});
  const std::vector<std::int64_t> send_splits = to_vector(send_counts);
  const std::vector<std::int64_t> recv_splits = to_vector(recv_counts);
  std::int64_t received = 0;
  for (std::int64_t count : recv_splits) received += count;

  at::Tensor recv_indices = at::empty({received}, indices.options());
  comm.all_to_all(recv_indices, send_indices, recv_splits, send_splits);
  const at::Tensor served = shard.index_select(0, recv_indices - comm.rank() * rows);

  at::Tensor grouped = at::empty({indices.size(0), shard.size(1)}, shard.options());
  comm.all_to_all(grouped, served, send_splits, recv_splits);
  at::Tensor out = at::empty_like(grouped);
  out.index_copy_(0, order, grouped);  // back to the order of indices
  return {{"out", out}};
}

}  // namespace

PKB_REGISTER_REFERENCE("010_embedding_lookup", make_inputs, solve);

}  // namespace pkb::ref::p010
