// Name tables and small accessors of the resolved plan.
#include "harness/plan/plan.h"

#include <set>

namespace pkb::plan {

std::size_t ResolvedArg::bytes() const {
  switch (kind) {
    case ArgKind::peers: return kPeersBytes;
    case ArgKind::signals: return kSignalPadBytes;
    case ArgKind::context: return kContextBytes;
    case ArgKind::i32:
    case ArgKind::u32:
    case ArgKind::f32: return 4;
    default: return 8;  // pointers, multicast address, 64-bit integers, f64
  }
}

int ResolvedPlan::find_buffer(const std::string& name) const {
  for (std::size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].name == name) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> library_steps(const ResolvedPlan& plan) {
  std::set<std::string> steps;
  for (const auto& step : plan.steps) {
    if (step.op == StepOp::gemm) steps.insert("gemm");
    if (step.op == StepOp::collective)
      steps.insert("collective:" + std::string(collective_kind_name(step.collective.kind)));
  }
  return {steps.begin(), steps.end()};
}

std::string_view buffer_kind_name(BufferKind kind) {
  switch (kind) {
    case BufferKind::local: return "local";
    case BufferKind::symmetric: return "symmetric";
    case BufferKind::multicast: return "multicast";
  }
  return "?";
}

std::string_view step_op_name(StepOp op) {
  switch (op) {
    case StepOp::kernel: return "kernel";
    case StepOp::memset: return "memset";
    case StepOp::copy: return "copy";
    case StepOp::gemm: return "gemm";
    case StepOp::collective: return "collective";
    case StepOp::barrier: return "barrier";
  }
  return "?";
}

std::string_view collective_kind_name(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::all_reduce: return "all_reduce";
    case CollectiveKind::all_gather: return "all_gather";
    case CollectiveKind::reduce_scatter: return "reduce_scatter";
    case CollectiveKind::all_to_all: return "all_to_all";
    case CollectiveKind::broadcast: return "broadcast";
    case CollectiveKind::reduce: return "reduce";
    case CollectiveKind::send: return "send";
    case CollectiveKind::recv: return "recv";
  }
  return "?";
}

std::string_view reduce_op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return "sum";
    case ReduceOp::prod: return "prod";
    case ReduceOp::max: return "max";
    case ReduceOp::min: return "min";
    case ReduceOp::avg: return "avg";
  }
  return "?";
}

}  // namespace pkb::plan
