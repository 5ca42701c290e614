// run_on_device: hand the compiled candidate to a worker child (harness/executor/worker_client.h)
// and fold its result into the outcome. Seeds are drawn here, after compiling, from the OS's
// entropy, so no candidate can know its inputs in advance. The worker's files go to a folder of
// this evaluation alone (two samples with the same CUDA and different plans run at once in a
// run), removed afterwards unless --work-dir named one.
#include "src/eval/eval_run.h"
#include "src/eval/eval_sol.h"

#include <optional>
#include <random>

#include "harness/executor/worker_client.h"
#include "src/common/error.h"
#include "src/common/file_bytes.h"
#include "src/compile/work_dir.h"

namespace pkb::eval {
namespace {

namespace fs = std::filesystem;

results::SampleStatus to_sample_status(harness::WorkerStatus status) {
  switch (status) {
    case harness::WorkerStatus::plan_error: return results::SampleStatus::plan_error;
    // No verdict: the simulated node does not implement an instruction the candidate ran.
    case harness::WorkerStatus::not_executed: return results::SampleStatus::compiled;
    case harness::WorkerStatus::runtime_error: return results::SampleStatus::runtime_error;
    case harness::WorkerStatus::timeout: return results::SampleStatus::timeout;
    case harness::WorkerStatus::incorrect: return results::SampleStatus::incorrect;
    case harness::WorkerStatus::correct: return results::SampleStatus::correct;
  }
  return results::SampleStatus::runtime_error;
}

}  // namespace

void run_on_device(const Candidate& candidate, const EvalRequest& request, const Target& target,
                   EvalOutcome& outcome) {
  std::optional<compile::WorkDir> scratch;
  fs::path dir = request.work_dir;
  if (dir.empty()) {
    scratch.emplace(fs::temp_directory_path(), "pkb-eval-" + outcome.compile.key.substr(0, 16) + "-");
    dir = scratch->path();
  }
  fs::create_directories(dir);
  write_file(dir / "kernel.cubin", outcome.compile.cubin);
  write_file(dir / "kernel.ptx", outcome.compile.ptx);
  write_file(dir / "plan.json", candidate.plan_json);

  harness::WorkerRequest worker;
  worker.problem = request.spec->key;
  worker.problems_dir = request.spec->dir.parent_path().string();
  worker.world = request.world;
  worker.dtype = request.dtype;
  worker.dims = request.dims;
  worker.cubin_path = (dir / "kernel.cubin").string();
  worker.ptx_path = (dir / "kernel.ptx").string();
  worker.plan_path = (dir / "plan.json").string();
  std::random_device entropy;
  std::uniform_int_distribution<int> seed(1, 1 << 30);
  // The shapes and their seeds were drawn by evaluate (sample_shapes.h), main first.
  worker.trial_seeds = outcome.shapes.front().seeds;
  for (std::size_t index = 1; index < outcome.shapes.size(); ++index)
    worker.drawn_trials.push_back({outcome.shapes[index].dims, outcome.shapes[index].seeds.front(),
                                   outcome.shapes[index].num_sms});
  worker.timing_seed = seed(entropy);
  worker.timing = request.time;
  worker.memory_model = target.memory_model;
  harness::WorkerRunOptions options;
  options.deadline_s = request.run_timeout_s;
  // The GPU worker probes the GPUs itself; the target only decided that there are some.
  options.program = target.gpu ? harness::worker_program() : harness::sim_worker_program();
  const harness::WorkerResult result = harness::run_worker(worker, options);
  outcome.judged_by = target.judge();
  outcome.status = to_sample_status(result.status);
  outcome.message = result.message;
  if (result.status == harness::WorkerStatus::not_executed)
    outcome.message = "not executed on the simulated node, so no verdict (a GPU judges it): " + result.message;
  if (!result.library_steps.empty()) outcome.library_steps = result.library_steps;
  if (result.simulation)
    outcome.warnings.insert(outcome.warnings.end(), result.simulation->warnings.begin(), result.simulation->warnings.end());
  outcome.run = nlohmann::json::parse(harness::result_to_json(result));
  if (outcome.status == results::SampleStatus::correct && result.timing) judge_speed_of_light(request, outcome);
}

}  // namespace pkb::eval
