// DINOv2 distributed k-NN: for each owner rank o in turn, o broadcasts its query shape and queries
// Q_o; every rank computes sims = rnd_P(Q_o . train_T) (fp32 accumulation), keeps its top k =
// min(max_k, Ln) per query with their labels, and gathers them to o, which merges the [Qn, W*k]
// candidates (rank order) into the global top k. Descending; ties: lower global train index first.
// Shapes: problems/079_dinov2_distributed_knn/problem.json.
#include <algorithm>
#include <utility>

#include "reference/matmul_p.h"
#include "reference/registry.h"

namespace pkb::ref::p079 {
namespace {

// Exact similarities: each query is a signed one-hot row, so every similarity is plus or minus one
// train feature value, computed exactly by any GEMM with fp32 accumulation in every precision. The
// train features are private to each rank (randn columns, normalised in fp32, rounded to P), so no
// rank can rebuild another's candidates; equal values (common in bf16/fp16) rank by lower global
// train index. The ranks' train rows interleave in every query's ranking, so a rank that skips the
// broadcast or the gather returns a different top k.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t local = ctx.dim("LT") / ctx.world();
  const std::int64_t features = ctx.dim("Fd"), queries = ctx.dim("Qn");
  const at::Tensor draw = at::randn({features, local}, ctx.generator(), at::kFloat);
  const at::Tensor train = draw / draw.norm(2, {0}, /*keepdim=*/true);
  const at::Tensor global = at::arange(ctx.rank() * local, (ctx.rank() + 1) * local, at::kLong).unsqueeze(0);

  const at::Tensor column = at::randint(0, features, {queries, 1}, ctx.generator(), at::kLong);
  const at::Tensor sign = at::randint(0, 2, {queries, 1}, ctx.generator(), at::kLong) * 2 - 1;
  const at::Tensor test = at::zeros({queries, features}, at::kFloat).scatter_(1, column, sign.to(at::kFloat));
  return {{"test_features", ctx.place(test, ctx.dtype())},
          {"train_features_T", ctx.place(train, ctx.dtype())},
          {"train_labels", ctx.to_device(global.remainder(1000))}};
}

// The k largest per row, descending; a stable sort keeps equal values in column order.
std::pair<at::Tensor, at::Tensor> top_k(const at::Tensor& values, std::int64_t k) {
  const auto [ordered, order] =
      at::sort(values.to(at::promote_types(values.scalar_type(), at::kFloat)), /*stable=*/true, 1, /*descending=*/true);
  return {ordered.narrow(1, 0, k).to(values.scalar_type()).contiguous(), order.narrow(1, 0, k).contiguous()};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars& scalars) {
  const at::Tensor& queries = in.at("test_features");
  const at::Tensor& train_t = in.at("train_features_T");
  const at::Tensor& labels = in.at("train_labels");
  const int world = comm.size(), rank = comm.rank();
  const std::int64_t k = std::min(scalars.integer("max_k"), train_t.size(1));
  at::Tensor topk_sims, topk_labels;
  for (int owner = 0; owner < world; ++owner) {
    const bool mine = owner == rank;
    // Every rank starts from its own shape; the broadcast overwrites it with the owner's.
    at::Tensor shape = at::tensor(queries.sizes().vec(), at::kLong).to(queries.device());
    comm.broadcast(shape, owner);
    const at::Tensor host_shape = shape.to(at::kCPU);
    at::Tensor owner_queries =
        mine ? queries.contiguous()
             : at::zeros({host_shape[0].item<std::int64_t>(), host_shape[1].item<std::int64_t>()}, queries.options());
    comm.broadcast(owner_queries, owner);

    const at::Tensor sims = matmul_p(owner_queries, train_t);  // [Qn, Ln]
    const auto [values, index] = top_k(sims, k);
    const at::Tensor candidate_labels = labels.expand({sims.size(0), labels.size(1)}).gather(1, index).contiguous();

    at::Tensor all_values = at::empty({mine ? world : 0, sims.size(0), k}, values.options());
    at::Tensor all_labels = at::empty({mine ? world : 0, sims.size(0), k}, candidate_labels.options());
    comm.gather(all_values, values, owner);
    comm.gather(all_labels, candidate_labels, owner);
    if (mine) {
      // Rank order, so equal similarities stay in global train index order.
      const at::Tensor merged_values = all_values.permute({1, 0, 2}).reshape({sims.size(0), world * k});
      const at::Tensor merged_labels = all_labels.permute({1, 0, 2}).reshape({sims.size(0), world * k});
      const auto [best, order] = top_k(merged_values, k);
      topk_sims = best;
      topk_labels = merged_labels.gather(1, order);
    }
  }
  return {{"topk_sims", topk_sims}, {"topk_labels", topk_labels}};
}

}  // namespace

PKB_REGISTER_REFERENCE("079_dinov2_distributed_knn", make_inputs, solve);

}  // namespace pkb::ref::p079
