// Shared by the gpu tests and the simulated node's tests: whether a GPU is here (through the CUDA
// runtime, so the program starts without a driver), and one answer file evaluated end to end:
// extract, compile with NVRTC, run in a fresh pkb-worker (or pkb-sim-worker) with secret seeds.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "harness/executor/worker_client.h"

namespace pkb::gpu_test {

/// "" when a CUDA device is usable, else why not (for GTEST_SKIP).
std::string gpu_missing_reason();

/// "sm_90a" for compute capability 9.0, from device 0.
std::string device_arch();

struct EvalOptions {
  int world = 2;
  bool timing = false;
  bool bench_dims = false;  // the problem's dims; test_dims otherwise
  double call_timeout_s = 10;
  double deadline_s = 300;
  harness::EmulateMode emulate = harness::EmulateMode::auto_detect;
  int trials = 3;
  bool simulated = false;          // pkb-sim-worker: the simulated node (compiled with multicast)
  std::uint64_t schedule_seed = 0;  // the simulated node's schedules; 0: derived from the seeds
  std::vector<int> trial_seeds;     // empty: secret random ones
  std::string memory_model = "ptx";  // the simulated node's: ptx or sc
};

/// The problem folder an answer file is for: problems/NNN_* for a file named NNN_*.md.
std::string problem_for(const std::filesystem::path& answer);

/// Evaluates `answer` (a model-style markdown answer). Compile failures fail the test and return
/// a result with status runtime_error and the log as message.
harness::WorkerResult eval_answer(const std::filesystem::path& answer, const EvalOptions& options);

/// One line for the test log: status, message, timing.
std::string describe(const harness::WorkerResult& result);

}  // namespace pkb::gpu_test
