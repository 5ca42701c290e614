// set_up_sample and its helpers (see executor_setup.h).
#include "harness/executor/executor_setup.h"

#include <set>

#include "harness/executor/worker_progress.h"
#include "harness/plan/plan.h"
#include "harness/plan/plan_resolve.h"
#include "src/common/file_bytes.h"
#include "src/compile/compile.h"
#include "src/problem/groups.h"
#include "src/problem/spec_loader.h"

namespace pkb::harness {
namespace {

std::string read_input_file(const std::string& path, const char* what) {
  auto text = read_file(path);
  if (!text) throw Error("executor: cannot read the " + std::string(what) + " " + path);
  return *text;
}

bool has_step(const std::vector<plan::ResolvedPlan>& plans, plan::StepOp op) {
  for (const auto& step : plans.front().steps)
    if (step.op == op) return true;
  return false;
}

// The problem's groups that the plan's collectives name, each with every rank's instance.
std::vector<ProcessGroup> process_groups(const problem::ProblemSpec& spec,
                                         const WorkerRequest& request,
                                         const std::vector<plan::ResolvedPlan>& plans) {
  std::set<int> named;
  for (const auto& step : plans.front().steps)
    if (step.op == plan::StepOp::collective && step.collective.group >= 0)
      named.insert(step.collective.group);
  std::vector<ProcessGroup> groups;
  for (int index : named) {
    const auto& group = spec.groups.at(static_cast<std::size_t>(index));
    const int size = problem::group_size(group, request.world, request.dims);
    ProcessGroup split{index, group.name, {}};
    for (int rank = 0; rank < request.world; ++rank)
      split.instance.push_back(
          problem::group_instance(request.world, rank, size, group.layout).index);
    groups.push_back(std::move(split));
  }
  return groups;
}

// Names every allocation for the device's messages ("y (rank 1)"), so an access outside one says
// which buffer it missed.
void name_buffers(ExecDevice& device, const PlanRunner& runner) {
  for (int rank = 0; rank < runner.world(); ++rank) {
    const auto& buffers = runner.plan(rank).buffers;
    for (std::size_t b = 0; b < buffers.size(); ++b)
      device.name_memory(runner.address(rank, static_cast<int>(b)), buffers[b].name);
    device.name_memory(runner.signal_pad(rank), "the signal pad");
  }
}

}  // namespace

void wait_or_fail(ExecDevice& device, double timeout_s, const std::string& what) {
  const SyncResult sync = device.synchronize(timeout_s);
  if (sync.ok) return;
  if (sync.not_executed)
    throw SampleFailed(WorkerStatus::not_executed, what + ": rank " + std::to_string(sync.rank) + ": " + sync.error);
  // A race against the ABI: the outputs may even be right, the answer is not.
  if (sync.race)
    throw SampleFailed(WorkerStatus::incorrect, what + ": rank " + std::to_string(sync.rank) + ": " + sync.error);
  if (sync.timed_out) {
    // The simulated node says why (its clock is virtual, and it knows where every thread waits).
    const std::string why = sync.error.empty() || !device.info().simulated
                                ? " did not finish within " + format_seconds(timeout_s) +
                                      (device.emulated() ? " (emulated ranks)" : "")
                                : " " + sync.error;
    throw SampleFailed(WorkerStatus::timeout, what + ": rank " + std::to_string(sync.rank) + why);
  }
  throw SampleFailed(WorkerStatus::runtime_error,
                     what + ": rank " + std::to_string(sync.rank) + ": " + sync.error);
}

void Sample::progress(const std::string& now) {
  stage = now;
  write_progress(request.progress_path, now);
}

std::unique_ptr<Sample> set_up_sample(const WorkerRequest& request,
                                      const DeviceFactory& make_device) {
  auto sample = std::make_unique<Sample>();
  sample->request = request;
  sample->progress("set-up");
  sample->spec =
      problem::load_problem(std::filesystem::path(request.problems_dir) / request.problem);
  sample->cubin = read_input_file(request.cubin_path, "cubin");
  const std::string ptx = read_input_file(request.ptx_path, "PTX");
  const std::string plan_text = read_input_file(request.plan_path, "plan");

  sample->device = make_device(request);
  if (at::hasCUDA())
    sample->reference_device =
        at::Device(at::kCUDA, request.devices.empty() ? 0 : request.devices[0]);

  plan::PlanTarget target;
  target.spec = &sample->spec;
  target.world = request.world;
  target.dtype = request.dtype;
  target.dims = request.dims;
  target.limits = sample->device->limits();
  target.kernels = compile::parse_ptx_entries(ptx);
  std::vector<plan::ResolvedPlan> plans =
      plan::resolve_all_ranks(*plan::parse_plan(plan_text), target);
  // Emulated ranks get collectives without NCCL (harness/device/collective_moves.h).
  const bool collectives = has_step(plans, plan::StepOp::collective);
  sample->device->prepare_library_steps(has_step(plans, plan::StepOp::gemm), collectives);
  sample->device->prepare_process_groups(process_groups(sample->spec, request, plans));
  sample->device->load_module(sample->cubin, ptx);
  sample->runner = std::make_unique<PlanRunner>(std::move(plans), *sample->device);
  name_buffers(*sample->device, *sample->runner);
  return sample;
}

}  // namespace pkb::harness
