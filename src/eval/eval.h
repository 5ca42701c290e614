// Evaluating one candidate (docs/ARCHITECTURE.md, "Evaluation"): extract the blocks, compile the source with NVRTC in a
// child process, resolve the plan against the problem and the device, then run it on the GPUs in
// a pkb-worker child, or stop at `compiled` where no GPU is visible. A candidate's failure is an
// outcome, never an exception; exceptions are pkb's own failures.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/plan/plan.h"
#include "src/compile/compile.h"
#include "src/results/sample_status.h"
#include "src/eval/sample_shapes.h"
#include "src/problem/spec.h"
#include "src/sol/judge.h"

namespace pkb::eval {

/// What a solution file holds: a model's answer (markdown with a ```cuda and a ```json block),
/// or a .cu source with its plan in a separate file.
struct Candidate {
  std::string source;
  std::string plan_json;
  std::optional<std::string> format_error;  // "missing_json_block: ..." when the answer is unusable
};

/// `plan_path` empty: `solution_path` is a model's answer. Throws InputError when a file cannot be read.
Candidate load_candidate(const std::filesystem::path& solution_path, const std::filesystem::path& plan_path);

/// Who judges a candidate (--device): `auto` is the GPUs where one is visible, else the simulated
/// node; `gpu` only the GPUs (without one, evaluation stops at `compiled`); `sim` always the
/// simulated node (the candidate's PTX run on the CPU: verdicts, no timing).
enum class DeviceChoice { auto_detect, gpu, sim };
std::string_view device_choice_name(DeviceChoice choice);
/// "auto", "gpu", "sim"; nullopt for anything else.
std::optional<DeviceChoice> parse_device_choice(std::string_view name);

/// The machine the candidate is compiled and resolved for.
struct Target {
  std::string arch = "sm_90a";
  plan::DeviceLimits limits;
  /// What the plan is also checked against at the bench dims before anything runs: the limits
  /// above on a GPU; on the simulated node those of the GPU it stands for (its memory, not the
  /// host's share), with its num_sms.
  plan::DeviceLimits bench_limits;
  bool gpu = false;            // an NVIDIA GPU is visible: the candidate runs on it
  bool sim = false;            // the simulated node judges it (pkb-sim-worker)
  std::string no_gpu_reason;   // why not on a GPU, for the `compiled` message and the records
  std::string memory_model = "ptx";  // the simulated node's: ptx (checked) or sc (--memory-model)
  int gpu_count = 0;
  std::string gpu_name;

  /// The candidate runs somewhere (a GPU or the simulated node).
  bool runs() const { return gpu || sim; }
  /// "gpu", "sim", or "" when nothing runs it.
  std::string judge() const { return gpu ? "gpu" : sim ? "sim" : ""; }
};

/// The probed GPUs when there are any and `choice` allows them; else, when `choice` allows, the
/// simulated node (an H200 shared by W ranks: num_sms per rank as harness/sim says, multicast on);
/// else the limits of `arch` (an H100/H200 for sm_90a, a B200 for sm_100a) with nothing to run
/// on. `arch` empty: the GPU's own, or sm_90a.
Target choose_target(const std::string& arch, int world, DeviceChoice choice = DeviceChoice::auto_detect);

struct EvalRequest {
  const problem::ProblemSpec* spec = nullptr;
  int world = 2;
  DType dtype = DType::bf16;
  std::map<std::string, std::int64_t> dims;
  int trials = 5;
  /// Shapes drawn under the size rules for extra trials (sample_shapes.h); 0 when --dims pins one.
  int drawn_shapes = kDefaultDrawnShapes;
  bool time = true;
  double compile_timeout_s = 120;
  double run_timeout_s = 600;        // the whole worker
  std::filesystem::path cache_dir;   // empty: no compile cache
  std::filesystem::path work_dir;    // where the cubin, PTX and plan go for the worker
};

struct EvalOutcome {
  results::SampleStatus status = results::SampleStatus::compile_error;
  std::string message;  // one line
  compile::CompileResult compile;
  std::vector<std::string> library_steps;
  // Advice that does not change the status: the simulated node's memory-model warnings (a
  // reader that polls a flag without an acquire; harness/ptx/memory_model/README.md).
  std::vector<std::string> warnings;
  int plan_steps = 0;
  /// The shapes the sample was (or would have been) judged at, main first; empty when it stopped
  /// before its plan was checked.
  std::vector<JudgedShape> shapes;
  nlohmann::json run;   // the worker's result when the candidate ran; null otherwise
  /// The speed-of-light judgement of a correct, timed run (src/sol/judge.h): sol_ms, sol_fraction,
  /// suspicious_fast. Empty when there is none; sol_note then says why.
  std::optional<sol::Judgement> sol;
  std::string sol_note;
  std::string judged_by;  // "gpu" or "sim" when the candidate ran; "" otherwise
};

EvalOutcome evaluate(const Candidate& candidate, const EvalRequest& request, const Target& target);

/// $PKB_CACHE_DIR, else $XDG_CACHE_HOME/pkb/nvrtc, else ~/.cache/pkb/nvrtc.
std::filesystem::path default_cache_dir();

}  // namespace pkb::eval
