// The compile stage calls evaluate() with a target that has no GPU, so it stops at `compiled`
// after NVRTC and plan validation; where a GPU exists, the GPU stage calls evaluate() again with
// the real target, and the compile cache (keyed by source and options) makes that second compile
// a lookup. The record keeps the first compile's time and cache flag.
#include "src/run/evaluator.h"

#include "src/common/error.h"
#include "src/results/durable_file.h"
#include "src/run/sample_record.h"

namespace pkb::run {

std::string category_of(const EvalSettings& settings, const std::string& problem) {
  const auto found = settings.specs.find(problem);
  return found == settings.specs.end() ? "" : found->second->category;
}

Evaluator::Evaluator(const EvalSettings& settings, results::SamplesLog& log, RunStats& stats)
    : settings_(settings), log_(log), stats_(stats), compile_target_(settings.target) {
  compile_target_.gpu = false;
  for (int index = 0; index < std::max(1, settings.compile_jobs); ++index)
    compilers_.emplace_back([this] { compile_loop(); });
  int runners = 0;
  if (settings.target.gpu) runners = 1;  // one at a time: timings stay clean
  if (settings.target.sim)
    runners = settings.sim_jobs > 0 ? settings.sim_jobs
                                    : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  for (int index = 0; index < runners; ++index) runners_.emplace_back([this] { gpu_loop(); });
}

Evaluator::~Evaluator() {
  try {
    finish();
  } catch (...) {  // reported by the caller's own finish(); a destructor must not throw
  }
}

void Evaluator::submit(results::Record generation) {
  if (generation.status != "generated") {  // api_error, format_error: final already
    const std::string category = category_of(settings_, generation.problem);
    record(unevaluated_record(std::move(generation), category));
    return;
  }
  Job job;
  const results::Artifacts artifacts = generation.artifacts.value_or(results::Artifacts{});
  for (const std::string* path : {&artifacts.cuda, &artifacts.plan})
    if (path->empty())
      throw InputError("samples.jsonl: " + generation.problem + " sample " +
                       std::to_string(generation.sample) +
                       ": a generated record without artifacts.cuda and artifacts.plan");
  job.candidate.source = results::read_file(settings_.out / artifacts.cuda);
  job.candidate.plan_json = results::read_file(settings_.out / artifacts.plan);
  job.generation = std::move(generation);
  ++stats_.compiling;
  compile_queue_.push(std::move(job));
}

eval::EvalRequest Evaluator::request_for(const results::Record& generation) const {
  const std::string& problem = generation.problem;
  const auto spec = settings_.specs.find(problem);
  if (spec == settings_.specs.end())
    throw InputError("samples.jsonl: problem " + problem + " is not in this run's problem set");
  eval::EvalRequest request;
  request.spec = spec->second;
  request.world = generation.world;
  const auto dtype = parse_dtype(generation.dtype);
  if (!dtype) throw InputError("samples.jsonl: " + problem + ": unknown dtype " + generation.dtype);
  request.dtype = *dtype;
  request.dims = settings_.dims.at(problem);
  request.trials = settings_.trials;
  request.drawn_shapes = settings_.drawn_shapes;
  request.time = settings_.time;
  request.compile_timeout_s = settings_.compile_timeout_s;
  request.run_timeout_s = settings_.run_timeout_s;
  request.cache_dir = settings_.cache_dir;
  return request;
}

void Evaluator::compile_loop() {
  while (auto job = compile_queue_.pop()) {
    --stats_.compiling;
    if (cancelled()) continue;  // not recorded: --resume evaluates it again
    try {
      const eval::EvalRequest request = request_for(job->generation);
      job->compiled = eval::evaluate(job->candidate, request, compile_target_);
      if (job->compiled.status == results::SampleStatus::compiled && settings_.target.runs()) {
        ++stats_.on_gpu;
        gpu_queue_.push(std::move(*job));
        continue;
      }
      const std::string problem = job->generation.problem;
      record(evaluated_record(std::move(job->generation), category_of(settings_, problem),
                              job->compiled, settings_.target.arch, settings_.target.no_gpu_reason,
                              settings_.out),
             job->compiled.compile.log);
    } catch (...) {
      fail(std::current_exception());
    }
  }
}

void Evaluator::gpu_loop() {
  while (auto job = gpu_queue_.pop()) {
    --stats_.on_gpu;
    if (cancelled()) continue;
    try {
      eval::EvalOutcome outcome =
          eval::evaluate(job->candidate, request_for(job->generation), settings_.target);
      if (outcome.compile.ok) {  // report the first compile, not the cache lookup
        outcome.compile.seconds = job->compiled.compile.seconds;
        outcome.compile.cache_hit = job->compiled.compile.cache_hit;
      }
      const std::string problem = job->generation.problem;
      record(evaluated_record(std::move(job->generation), category_of(settings_, problem), outcome,
                              settings_.target.arch, settings_.target.no_gpu_reason, settings_.out),
             outcome.compile.log);
    } catch (...) {
      fail(std::current_exception());
    }
  }
}

void Evaluator::record(results::Record record, const std::string& compile_log) {
  record.time = results::utc_now_iso();
  const bool sample_over = settings_.annotate ? settings_.annotate(record, compile_log) : true;
  log_.append(record);
  stats_.count(record.status, sample_over);
  if (settings_.written) settings_.written(record);
}

void Evaluator::fail(std::exception_ptr error) {
  std::lock_guard<std::mutex> lock(error_mutex_);
  if (!error_) error_ = error;
  failed_ = true;  // a pkb-side failure would repeat for every sample: stop taking more
}

void Evaluator::finish() {
  if (finished_) return;
  finished_ = true;
  compile_queue_.close();
  for (auto& thread : compilers_) thread.join();
  gpu_queue_.close();
  for (auto& thread : runners_) thread.join();
  if (error_) std::rethrow_exception(error_);
}

}  // namespace pkb::run
