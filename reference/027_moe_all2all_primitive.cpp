// MoE token all-to-all with split lists: rank r sends rows [off_d, off_d + in_splits[d]) of x to
// rank d; y is the blocks received, block s (out_splits[s] rows) from rank s.
// Shapes: problems/027_moe_all2all_primitive/problem.json.
#include <ATen/CPUGeneratorImpl.h>

#include "reference/registry.h"

namespace pkb::ref::p027 {
namespace {

constexpr int kProblemId = 27;

// The split matrix is a rotated random split p of M into W parts: rank s sends p[(d - s) mod W]
// rows to rank d, so every rank sends and receives M rows, while the lists differ per rank and
// per direction (a kernel assuming equal splits, or one list for both ways, is caught). All ranks
// must agree on p, so it comes from rank 0's seed for the trial, not from this rank's generator.
// x differs per rank, so a skipped exchange is caught too.
Tensors make_inputs(InputContext& ctx) {
  const std::int64_t world = ctx.world();
  const std::int64_t rows = ctx.dim("M");
  at::Generator shared = at::detail::createCPUGenerator(input_seed(kProblemId, 0, ctx.trial()));
  const at::Tensor parts = at::randint(0, world, {rows}, shared, at::kLong).bincount({}, world);
  std::vector<std::int64_t> in_splits(world), out_splits(world);
  for (std::int64_t peer = 0; peer < world; ++peer) {
    in_splits[peer] = parts[(peer - ctx.rank() + world) % world].item<std::int64_t>();
    out_splits[peer] = parts[(ctx.rank() - peer + world) % world].item<std::int64_t>();
  }
  return {{"x", ctx.randn({rows, ctx.dim("N")})},
          {"in_splits", ctx.place(at::tensor(in_splits), at::kLong)},
          {"out_splits", ctx.place(at::tensor(out_splits), at::kLong)}};
}

std::vector<std::int64_t> host_list(const at::Tensor& splits) {
  const at::Tensor host = splits.cpu();
  return {host.data_ptr<std::int64_t>(), host.data_ptr<std::int64_t>() + host.numel()};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& x = in.at("x");
  const auto in_splits = host_list(in.at("in_splits"));
  const auto out_splits = host_list(in.at("out_splits"));
  std::int64_t received = 0;
  for (std::int64_t rows : out_splits) received += rows;
  at::Tensor y = at::empty({received, x.size(1)}, x.options());
  comm.all_to_all(y, x, out_splits, in_splits);
  return {{"y", y}};
}

}  // namespace

PKB_REGISTER_REFERENCE("027_moe_all2all_primitive", make_inputs, solve);

}  // namespace pkb::ref::p027
