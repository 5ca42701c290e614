// moe_dispatch: see the header; each function here was written out in the problems it serves.
#include "reference/moe_dispatch.h"

#include <algorithm>
#include <numeric>

namespace pkb::ref::moe {
namespace {

at::ScalarType accumulation(const at::Tensor& x) {
  return at::promote_types(x.scalar_type(), at::kFloat);
}

}  // namespace

std::vector<std::int64_t> host_list(const at::Tensor& values) {
  const at::Tensor host = values.cpu().contiguous();
  return {host.data_ptr<std::int64_t>(), host.data_ptr<std::int64_t>() + host.numel()};
}

at::Tensor linear_addmm(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b) {
  const auto acc = accumulation(x);
  return at::addmm(b.to(acc), x.to(acc), w.to(acc).t()).to(x.scalar_type());
}

at::Tensor linear_matmul_add(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b) {
  const auto acc = accumulation(x);
  return (at::matmul(x.to(acc), w.to(acc).t()) + b.to(acc)).to(x.scalar_type());
}

Routing route_top_k(const Tensors& in, std::int64_t k) {
  const at::Tensor& x = in.at("hidden_states");
  const at::Tensor logits = linear_matmul_add(x, in.at("gate_weight"), in.at("gate_bias"));
  const at::Tensor probs = at::softmax(logits.to(accumulation(x)), -1).to(x.scalar_type());
  const auto [weights, experts] = at::topk(probs, k, -1);
  return {weights, experts};
}

Routing route_stable_top_k(const Tensors& in, std::int64_t k) {
  const at::Tensor& x = in.at("hidden_states");
  const auto acc = accumulation(x);
  const at::Tensor logits = linear_addmm(x, in.at("gate_weight"), in.at("gate_bias"));
  const at::Tensor probs = at::softmax(logits.to(acc), -1).to(x.scalar_type());
  const auto [sorted, order] = at::sort(probs.to(acc), /*stable=*/true, -1, /*descending=*/true);
  return {sorted.narrow(1, 0, k).to(x.scalar_type()), order.narrow(1, 0, k)};
}

Dispatch plan_dispatch(Comm& comm, const at::Tensor& chosen, std::int64_t experts) {
  const std::int64_t size = comm.size(), local = experts / size;
  const at::Tensor pair_expert = chosen.reshape(-1);
  const at::Tensor counts = at::bincount(pair_expert, {}, experts);
  at::Tensor all_counts = at::empty({size * experts}, counts.options());
  comm.all_gather(all_counts, counts);
  Dispatch plan;
  plan.send_splits = host_list(counts.view({size, local}).sum(1));
  plan.recv_splits = host_list(all_counts.view({size, size, local}).select(1, comm.rank()).sum(1));
  // A stable sort keeps the pairs of one expert in pair order, which is token order.
  plan.order = std::get<1>(at::sort(pair_expert, /*stable=*/true, 0, /*descending=*/false));
  plan.token = at::div(plan.order, chosen.size(1), "floor");
  return plan;
}

at::Tensor dispatch_rows(Comm& comm, const Dispatch& plan, const at::Tensor& x) {
  const std::int64_t received_rows =
      std::accumulate(plan.recv_splits.begin(), plan.recv_splits.end(), std::int64_t{0});
  at::Tensor received = at::empty({received_rows, x.size(1)}, x.options());
  comm.all_to_all(received, x.index_select(0, plan.token), plan.recv_splits, plan.send_splits);
  return received;
}

Projection addmm_projection(const Tensors& in) {
  return [&in](const at::Tensor& rows, const std::string& name) {
    return linear_addmm(rows, in.at(name + "_proj_weight"), in.at(name + "_proj_bias"));
  };
}

Projection matmul_add_projection(const Tensors& in) {
  return [&in](const at::Tensor& rows, const std::string& name) {
    return linear_matmul_add(rows, in.at(name + "_proj_weight"), in.at(name + "_proj_bias"));
  };
}

at::Tensor expert_mlp(const at::Tensor& rows, const Projection& project) {
  const auto dtype = rows.scalar_type();
  const auto acc = accumulation(rows);
  const at::Tensor act = at::silu(project(rows, "gate").to(acc)).to(dtype);
  const at::Tensor up = project(rows, "up");
  return project((act.to(acc) * up.to(acc)).to(dtype), "down").contiguous();
}

at::Tensor combine(Comm& comm, const Dispatch& plan, const at::Tensor& y,
                   const at::Tensor& weights) {
  const auto dtype = y.scalar_type();
  const auto acc = accumulation(y);
  at::Tensor returned = at::empty({plan.order.size(0), y.size(1)}, y.options());
  comm.all_to_all(returned, y, plan.send_splits, plan.recv_splits);
  const at::Tensor pair_weight = weights.reshape(-1).index_select(0, plan.order);
  const at::Tensor contrib = (returned.to(acc) * pair_weight.unsqueeze(1).to(acc)).to(dtype);
  const at::Tensor per_pair = at::empty_like(contrib).index_copy_(0, plan.order, contrib);
  return per_pair.view({weights.size(0), weights.size(1), y.size(1)}).to(acc).sum(1).to(dtype);
}

at::Tensor ep_moe_layer(Comm& comm, const Tensors& in, std::int64_t top_k) {
  const std::int64_t experts = in.at("gate_weight").size(0);
  const Routing routing = route_stable_top_k(in, std::min(top_k, experts));
  const Dispatch plan = plan_dispatch(comm, routing.experts, experts);
  const at::Tensor received = dispatch_rows(comm, plan, in.at("hidden_states"));
  const at::Tensor y = expert_mlp(received, addmm_projection(in));
  return combine(comm, plan, y, routing.weights);
}

}  // namespace pkb::ref::moe
