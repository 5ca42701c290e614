// TorchRec KeyedJaggedTensor all-to-all: rank d owns k_d = key_splits[d] consecutive features.
// Exchange the (W, 3) metadata rows (k_d*B lengths, the values of d's features, B), then
// all-to-all the lengths and the values, and regroup the received [source][feature][sample]
// lengths (and their value segments) as [feature][source][sample].
// Shapes: problems/070_torchrec_kjt_all2all/problem.json.
#include "reference/registry.h"

namespace pkb::ref::p070 {
namespace {

std::vector<std::int64_t> host_list(const at::Tensor& tensor) {
  const at::Tensor cpu = tensor.to(at::kCPU, at::kLong).contiguous();
  return {cpu.data_ptr<std::int64_t>(), cpu.data_ptr<std::int64_t>() + cpu.numel()};
}

// Lengths and ids are random per rank and trial, so every received segment from another rank
// is wrong when a collective is skipped. values is a capacity buffer of 20*F*B (the largest
// sum of lengths in [5, 20]) padded with -1.
Tensors make_inputs(InputContext& ctx) {
  const int world = ctx.world();
  std::vector<std::int64_t> splits;
  std::int64_t features = 0;
  for (int d = 0; d < world; ++d) {
    splits.push_back(1 + d % 3);
    features += splits.back();
  }
  const std::int64_t batch = ctx.dim("B");
  const at::Tensor lengths = ctx.randint64(5, 20, {features * batch});
  const std::int64_t total = lengths.sum().item<std::int64_t>();
  at::Tensor values = at::full({20 * features * batch}, -1, lengths.options());
  values.narrow(0, 0, total).copy_(ctx.randint64(0, 999999, {total}));
  return {{"lengths", lengths},
          {"values", values},
          {"key_splits", ctx.to_device(at::tensor(splits, at::kLong))}};
}

Tensors solve(Comm& comm, const Tensors& in, const Scalars&) {
  const at::Tensor& lengths = in.at("lengths");
  const at::Tensor& values = in.at("values");
  const auto splits = host_list(in.at("key_splits"));
  const int world = comm.size(), rank = comm.rank();
  std::int64_t features = 0;
  for (std::int64_t k : splits) features += k;
  const std::int64_t batch = lengths.numel() / features;

  const auto per_feature = host_list(lengths.view({features, batch}).sum(1));
  std::vector<std::int64_t> len_split, val_split, meta_rows;
  std::int64_t feature = 0, sending = 0;
  for (std::int64_t k : splits) {
    std::int64_t count = 0;
    for (std::int64_t f = 0; f < k; ++f) count += per_feature[feature++];
    len_split.push_back(k * batch);
    val_split.push_back(count);
    sending += count;
    meta_rows.insert(meta_rows.end(), {k * batch, count, batch});
  }
  const at::Tensor meta = at::tensor(meta_rows, lengths.options()).view({world, 3});
  const at::Tensor recv_meta = at::empty_like(meta);
  comm.all_to_all(recv_meta, meta, {}, {});
  const auto received_meta = host_list(recv_meta);

  // Equal batch sizes: every source sends this rank k*B lengths (its metadata row's first entry).
  const std::int64_t mine = splits[rank];
  std::vector<std::int64_t> recv_len_split(world, mine * batch), recv_val_split;
  std::int64_t receiving = 0;
  for (int s = 0; s < world; ++s) {
    recv_val_split.push_back(received_meta[3 * s + 1]);
    receiving += recv_val_split.back();
  }
  const at::Tensor recv_lengths = at::empty({world * mine * batch}, lengths.options());
  const at::Tensor received_values = at::empty({receiving}, values.options());
  comm.all_to_all(recv_lengths, lengths, recv_len_split, len_split);
  comm.all_to_all(received_values, values.narrow(0, 0, sending), recv_val_split, val_split);

  // Segment s*k + f holds the values of source s, local feature f; put them in (f, s) order.
  const at::Tensor by_source = recv_lengths.view({world, mine, batch});
  const auto segments = received_values.split_with_sizes(host_list(by_source.sum(2).view({-1})));
  std::vector<at::Tensor> ordered;
  for (std::int64_t f = 0; f < mine; ++f)
    for (int s = 0; s < world; ++s) ordered.push_back(segments[s * mine + f]);
  at::Tensor padded = at::full({20 * mine * world * batch}, -1, values.options());
  padded.narrow(0, 0, receiving).copy_(at::cat(ordered));

  const at::Tensor stride_per_rank = recv_meta.select(1, 2).contiguous();
  return {{"recv_lengths", by_source.transpose(0, 1).reshape({-1})},
          {"recv_values", padded},
          {"recv_values_count", at::scalar_tensor(receiving, values.options())},
          {"stride", stride_per_rank.sum()},
          {"stride_per_rank", stride_per_rank}};
}

}  // namespace

PKB_REGISTER_REFERENCE("070_torchrec_kjt_all2all", make_inputs, solve);

}  // namespace pkb::ref::p070
