// See gpu_fixture.h.
#include "tests/gpu/gpu_fixture.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <random>

#include "src/common/file_bytes.h"
#include "src/compile/compile.h"
#include "src/extract/extract.h"
#include "src/problem/spec_loader.h"

namespace pkb::gpu_test {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) { return read_file(path).value_or(""); }

fs::path fresh_dir() {
  std::string pattern = (fs::temp_directory_path() / "pkb-gpu-test-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error("cannot create a temporary folder");
  return pattern;
}

}  // namespace

std::string gpu_missing_reason() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) return std::string("no usable GPU: ") + cudaGetErrorString(status);
  if (count == 0) return "no GPU on this machine";
  return "";
}

std::string device_arch() {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return "sm_90a";
  return "sm_" + std::to_string(prop.major) + std::to_string(prop.minor) +
         (prop.major >= 9 ? "a" : "");
}

std::string problem_for(const fs::path& answer) {
  // problems/NNN_name/answer.md belongs to its folder; other answers are named NNN_*.md.
  if (answer.filename() == "answer.md") return answer.parent_path().filename().string();
  const std::string prefix = answer.filename().string().substr(0, 4);  // "001_"
  for (const auto& entry : fs::directory_iterator(fs::path(PKB_SOURCE_DIR) / "problems"))
    if (entry.is_directory() && entry.path().filename().string().rfind(prefix, 0) == 0)
      return entry.path().filename().string();
  return "";
}

harness::WorkerResult eval_answer(const fs::path& answer, const EvalOptions& options) {
  harness::WorkerResult failed;
  failed.status = harness::WorkerStatus::runtime_error;
  const std::string key = problem_for(answer);
  if (key.empty()) {
    ADD_FAILURE() << answer << ": no problem folder for it";
    return failed;
  }
  const fs::path problems = fs::path(PKB_SOURCE_DIR) / "problems";
  const problem::ProblemSpec spec = problem::load_problem(problems / key);
  const extract::Extraction extraction = extract::extract_solution(read_text(answer), false);
  if (!extraction.ok()) {
    ADD_FAILURE() << answer << ": " << extraction.message;
    return failed;
  }
  compile::CompileOptions compile_options;
  compile_options.arch = options.simulated ? "sm_90a" : device_arch();
  compile_options.world = options.world;
  compile_options.multicast = options.simulated;  // the simulated node has multicast
  compile_options.timeout_s = 120;
  // One compile cache for every test process of this user: the same answers recompile often.
  compile_options.cache_dir = fs::temp_directory_path() / ("pkb-test-nvrtc-" + std::to_string(::getuid()));
  const compile::CompileResult compiled = compile::compile_cuda(extraction.cuda, compile_options);
  if (!compiled.ok) {
    ADD_FAILURE() << answer << " does not compile:\n" << compiled.log;
    failed.message = compiled.log;
    return failed;
  }
  const fs::path dir = fresh_dir();
  write_file(dir / "kernel.cubin", compiled.cubin);
  write_file(dir / "kernel.ptx", compiled.ptx);
  write_file(dir / "plan.json", extraction.plan_json);

  harness::WorkerRequest request;
  request.problem = key;
  request.problems_dir = problems.string();
  request.world = options.world;
  request.dtype = DType::bf16;
  request.dims = options.bench_dims ? spec.dims : spec.test_dims;
  request.cubin_path = (dir / "kernel.cubin").string();
  request.ptx_path = (dir / "kernel.ptx").string();
  request.plan_path = (dir / "plan.json").string();
  std::random_device random;  // secret seeds, as pkb eval draws them
  for (int trial = 0; trial < options.trials; ++trial)
    request.trial_seeds.push_back(static_cast<int>(random() % 1000000) + 1);
  if (!options.trial_seeds.empty()) request.trial_seeds = options.trial_seeds;
  request.schedule_seed = options.schedule_seed;
  request.memory_model = options.memory_model;
  request.timing_seed = static_cast<int>(random() % 1000000) + 1000000;
  request.timing = options.timing;
  request.call_timeout_s = options.call_timeout_s;
  request.emulate = options.emulate;
  harness::WorkerRunOptions run_options;
  run_options.deadline_s = options.deadline_s;
  if (options.simulated) run_options.program = harness::sim_worker_program();
  harness::WorkerResult result = harness::run_worker(request, run_options);
  std::error_code ignored;
  fs::remove_all(dir, ignored);
  return result;
}

std::string describe(const harness::WorkerResult& result) {
  std::ostringstream line;
  line << harness::worker_status_name(result.status) << ": " << result.message
       << " [stage: " << result.stage << ", " << result.seconds << " s";
  if (result.timing)
    line << ", candidate " << result.timing->candidate.median_us << " us, baseline "
         << result.timing->baseline.median_us << " us, speedup " << result.timing->speedup
         << (result.timing->emulated ? " (emulated)" : "");
  line << "]";
  if (result.status != harness::WorkerStatus::correct && !result.log.empty())
    line << "\nworker log:\n" << result.log;
  return line.str();
}

}  // namespace pkb::gpu_test
