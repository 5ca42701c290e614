// The evaluation half of the pipeline (docs/ARCHITECTURE.md, "One sample through pkb run"): C threads compile and validate plans in
// parallel (each compile is its own NVRTC child), then a single thread runs candidates on the
// GPU one at a time so timings stay clean; on the simulated node, which times nothing, one
// thread per core judges them side by side. Every sample's final record is appended to
// samples.jsonl exactly once, by whichever stage finishes it.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "src/eval/eval.h"
#include "src/results/samples_file.h"
#include "src/run/run_stats.h"
#include "src/run/work_queue.h"

namespace pkb::run {

struct EvalSettings {
  std::filesystem::path out;
  std::map<std::string, const problem::ProblemSpec*> specs;         // by problem key
  std::map<std::string, std::map<std::string, std::int64_t>> dims;  // by problem key
  int trials = 5;
  int drawn_shapes = eval::kDefaultDrawnShapes;  // 0 when --dims pinned one shape
  bool time = true;
  int compile_jobs = 2;
  double compile_timeout_s = 120;
  double run_timeout_s = 600;
  std::filesystem::path cache_dir;  // the NVRTC compile cache; empty: none
  eval::Target target;              // the machine; target.runs() decides whether the run stage runs
  int sim_jobs = 0;                 // simulated-node evaluations at once; 0: one per core
  const std::atomic<bool>* cancel = nullptr;
  /// Refinement turns (conversation.h): called with each final record and the full compile log
  /// before the record is written, to add its conversation fields; returns whether the sample is
  /// over. `written` follows once the record is durable. Unset: every record ends its sample.
  std::function<bool(results::Record& record, const std::string& compile_log)> annotate;
  std::function<void(const results::Record& record)> written;
};

class Evaluator {
 public:
  Evaluator(const EvalSettings& settings, results::SamplesLog& log, RunStats& stats);
  ~Evaluator();  // finish() if not done
  /// A generation record (status generated, format_error or api_error). Thread-safe.
  void submit(results::Record generation);
  /// Waits until every submitted sample is recorded (or dropped on cancel); rethrows the first
  /// pkb-side error of a stage thread.
  void finish();
  /// A stage thread failed with a pkb-side error: no more records will be written.
  bool failed() const { return failed_; }

 private:
  struct Job {
    results::Record generation;
    eval::Candidate candidate;
    eval::EvalOutcome compiled;  // the compile stage's outcome, for the GPU stage
  };
  void compile_loop();
  void gpu_loop();
  eval::EvalRequest request_for(const results::Record& generation) const;
  void record(results::Record record, const std::string& compile_log = "");
  void fail(std::exception_ptr error);
  bool cancelled() const { return failed_ || (settings_.cancel && settings_.cancel->load()); }

  const EvalSettings& settings_;
  results::SamplesLog& log_;
  RunStats& stats_;
  eval::Target
      compile_target_;  // settings_.target without the GPU: the compile stage stops at `compiled`
  WorkQueue<Job> compile_queue_;
  WorkQueue<Job> gpu_queue_;
  std::vector<std::thread> compilers_;
  std::vector<std::thread> runners_;
  std::mutex error_mutex_;
  std::exception_ptr error_;
  std::atomic<bool> failed_{false};
  bool finished_ = false;
};

/// The problem's category for records ("" when the key is unknown to `settings`).
std::string category_of(const EvalSettings& settings, const std::string& problem);

}  // namespace pkb::run
