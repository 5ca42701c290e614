// PlanRunner::issue: one candidate call on every rank. Steps go out in the plan's issue order,
// each step for all ranks before the next, so a kernel that spins on its peers finds them
// launched; collectives of one step share an NCCL group, as one thread driving W GPUs needs.
#include "harness/device/plan_runner.h"

namespace pkb::harness {
namespace {

using plan::StepOp;

}  // namespace

void PlanRunner::issue(int input_set) {
  const auto& order = plans_[0].steps;
  const int fork = static_cast<int>(plans_[0].events.size());
  const int join_base = fork + 1;
  for (int rank = 0; rank < world(); ++rank) {
    device_.record(rank, 0, fork);
    for (int stream : plans_[rank].streams_used)
      if (stream != 0) device_.wait(rank, stream, fork);
  }
  for (std::size_t s = 0; s < order.size(); ++s) {
    // One NCCL group per collective step, and one for each run of send/recv steps (plan.h).
    const bool p2p = plan::is_point_to_point(order[s]);
    const bool opens = order[s].op == StepOp::collective && !(p2p && s > 0 && plan::is_point_to_point(order[s - 1]));
    const bool closes = order[s].op == StepOp::collective &&
                        !(p2p && s + 1 < order.size() && plan::is_point_to_point(order[s + 1]));
    if (opens) device_.group_begin();
    for (int rank = 0; rank < world(); ++rank) {
      const plan::ResolvedStep& step = plans_[rank].steps[s];
      const auto& buffers = plans_[rank].buffers;
      for (int event : step.waits) device_.wait(rank, step.stream, event);
      auto at = [&](int buffer, int owner, std::uint64_t element) {
        return address(owner, buffer, input_set) + element * dtype_size(buffers[buffer].dtype);
      };
      switch (step.op) {
        case StepOp::kernel: {
          const auto& k = step.kernel;
          KernelLaunch launch{k.kernel, k.grid, k.block, k.cluster, k.shared_bytes, k.cooperative,
                              marshal_args(rank, k, input_set)};
          device_.launch(rank, step.stream, launch);
          break;
        }
        case StepOp::memset:
          device_.memset(rank, step.stream, at(step.memset.buffer, rank, 0), step.memset.value,
                         buffers[step.memset.buffer].bytes);
          break;
        case StepOp::copy: {
          const auto& c = step.copy;
          device_.copy(rank, step.stream, at(c.dst, c.dst_rank, c.dst_offset), at(c.src, c.src_rank, c.src_offset),
                       c.count * dtype_size(buffers[c.dst].dtype));
          break;
        }
        case StepOp::gemm: {
          const auto& g = step.gemm;
          GemmCall call{at(g.a, rank, g.a_offset), at(g.b, rank, g.b_offset), at(g.c, rank, g.c_offset),
                        buffers[g.a].dtype, buffers[g.c].dtype, g.m, g.n, g.k, g.lda, g.ldb, g.ldc,
                        g.trans_a, g.trans_b, g.alpha, g.beta};
          device_.gemm(rank, step.stream, call);
          break;
        }
        case StepOp::collective: {
          const auto& c = step.collective;
          CollectiveCall call;
          call.kind = c.kind;
          call.send = c.send >= 0 ? at(c.send, rank, c.send_offset) : 0;
          call.recv = c.recv >= 0 ? at(c.recv, rank, c.recv_offset) : 0;
          call.count = c.count;
          call.dtype = buffers[c.send >= 0 ? c.send : c.recv].dtype;
          call.reduce = c.reduce;
          call.root = c.root;
          call.peer = c.peer;
          call.group = c.group;
          call.members = c.members;
          device_.collective(rank, step.stream, call);
          break;
        }
        case StepOp::barrier: device_.barrier(rank, step.stream); break;
      }
      if (step.record >= 0) device_.record(rank, step.stream, step.record);
    }
    if (closes) device_.group_end();
  }
  for (int rank = 0; rank < world(); ++rank)
    for (int stream : plans_[rank].streams_used)
      if (stream != 0) {
        device_.record(rank, stream, join_base + stream);
        device_.wait(rank, 0, join_base + stream);
      }
}

}  // namespace pkb::harness
