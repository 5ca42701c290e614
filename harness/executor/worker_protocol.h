// What pkb asks pkb-worker to do for one sample, and what comes back (files of JSON, so the two
// processes share no memory and the worker may die at any point). No CUDA here: pkb links this.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/executor/timing_stats.h"
#include "src/common/dtype.h"

namespace pkb::harness {

/// Whether W ranks share one GPU. "auto": emulate when the machine has fewer GPUs than W.
/// (Serialized "auto", "on", "off"; `auto` is a C++ keyword, hence the enumerator's name.)
enum class EmulateMode { auto_detect, on, off };
std::string_view emulate_mode_name(EmulateMode mode);

/// The statuses a worker can end with (docs/ARCHITECTURE.md, "Evaluation"; earlier ones belong to
/// pkb eval). not_executed: the simulated node met an instruction it does not implement, so there
/// is no verdict (pkb records the sample as `compiled`, with the instruction named).
enum class WorkerStatus { plan_error, not_executed, runtime_error, timeout, incorrect, correct };
std::string_view worker_status_name(WorkerStatus status);

/// One correctness trial at sizes of its own, drawn under the problem's size rules (pkb eval draws
/// them, src/problem/shape_sampler.h), run before the trials at `dims`.
struct DrawnTrial {
  std::map<std::string, std::int64_t> dims;
  int seed = 0;
  int num_sms = 0;  // the simulated node's SMs per rank for this trial (0: its own; GPUs ignore it)
};

struct WorkerRequest {
  std::string problem;       // "001_allreduce"
  std::string problems_dir;  // holds problem/problem.json
  int world = 2;
  DType dtype = DType::bf16;
  std::map<std::string, std::int64_t> dims;  // the run's sizes
  std::string cubin_path, ptx_path, plan_path;
  std::vector<int> trial_seeds;  // one correctness trial per seed; secret, chosen by the caller
  std::vector<DrawnTrial> drawn_trials;  // one more trial each, at its own sizes (trial indices
                                         // after those of trial_seeds)
  int num_sms = 0;  // the simulated node only: SMs per rank (0: simulated_sms(W)); set per trial
  int timing_seed = 0;           // timing input set k draws its values with seed timing_seed + k
  bool timing = true;
  int timing_rounds = 3;       // candidate and baseline alternate, A B A B ...
  double call_timeout_s = 10;  // the watchdog's deadline for one candidate call
  EmulateMode emulate = EmulateMode::auto_detect;
  std::vector<int> devices;    // CUDA ordinals; empty: 0..W-1 (0 when emulating)
  // The simulated node (pkb-sim-worker) only: the seed of every trial's schedule (0: derived from
  // the trial seeds) and the lane-instructions one call may execute before it is a timeout.
  std::uint64_t schedule_seed = 0;
  std::uint64_t call_lane_budget = 2'000'000'000;
  std::string memory_model = "ptx";  // "ptx" (races checked) or "sc" (harness/ptx/memory_model)
  std::string progress_path;   // where the worker writes its current stage
  std::string result_path;     // where the worker writes the result
};

/// One correctness trial, summarized by its worst tensor.
struct TrialSummary {
  bool passed = false;
  bool skewed = false;  // ranks started with random delays
  std::string schedule; // the simulated node's interleaving ("rank order", ...); "" on a GPU
  std::string tensor;   // the worst (first failing, or closest to the bound) output
  int rank = 0;
  double max_abs_err = 0;
  double max_rel_err = 0;
  double error_ratio = 0;
  std::int64_t mismatches = 0;
  std::vector<std::int64_t> first_bad_index;
  std::string summary;  // check::TensorVerdict::summary(), or why the trial failed
  std::string shape;    // the sizes it ran at, "M=4 N=8"
  int num_sms = 0;      // SMs per rank it ran with
};

struct TimingResult {
  TimingStats candidate;
  TimingStats baseline;
  double speedup = 0;  // median over rounds of baseline median / candidate median
  std::vector<double> round_speedups;
  bool emulated = false;      // ranks shared a GPU: never counts toward fast_p
  std::string baseline_kind;  // "nccl" (W GPUs) or "simulated" (one GPU)
  int input_sets = 1;
  int distinct_input_sets = 1;
  bool exceeds_l2 = false;  // false: memory or the count cap stopped short of 3x L2
  bool recheck_passed = false;  // outputs after timing matched the reference
};

struct DeviceSummary {
  std::vector<std::string> names;
  bool emulated = false;
  bool green_contexts = false;
  std::string green_note;
  int sms_per_rank = 0;
  bool multicast = false;
  std::string arch;
  bool simulated = false;  // the simulated node judged it (pkb-sim-worker): no timing exists
};

/// What the simulated node did for a sample (absent on a GPU).
struct SimulationSummary {
  std::uint64_t schedule_seed = 0;
  std::uint64_t lane_instructions = 0;
  int calls = 0;
  double seconds = 0;
  std::string memory_model;           // "ptx" or "sc" (harness/ptx/memory_model/README.md)
  std::vector<std::string> warnings;  // races the memory model only warns of (a reader's missing acquire)
};

struct WorkerResult {
  WorkerStatus status = WorkerStatus::runtime_error;
  std::string message;  // one line: why it is not correct, or a timing note
  std::string stage;    // where the worker was when it stopped
  std::vector<TrialSummary> trials;
  std::optional<TimingResult> timing;
  std::vector<std::string> library_steps;  // "gemm", "collective:all_reduce"
  DeviceSummary device;
  std::optional<SimulationSummary> simulation;
  double seconds = 0;  // the worker's wall time
  std::string log;     // tail of the worker's stderr (filled by run_worker)
};

/// "2 s", "0.5 s": durations in messages.
std::string format_seconds(double seconds);

std::string request_to_json(const WorkerRequest& request);
/// Throws pkb::InputError naming `source` and the field.
WorkerRequest parse_request(const std::string& text, const std::string& source);
std::string result_to_json(const WorkerResult& result);
WorkerResult parse_result(const std::string& text, const std::string& source);

}  // namespace pkb::harness
