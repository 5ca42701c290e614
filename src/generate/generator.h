// `pkb generate` without the command line: ask a model for K samples of each prompt with J
// workers, cache every terminal answer, extract the solution, and record each sample once in the
// results layout of docs/RESULTS.md:
//   run.json              what was run (model, parameters, problems, prompts), schema_version
//   samples.jsonl         one record per sample, appended and flushed per line
//   responses/ab/KEY.json the response cache (raw request and reply, normalized result)
//   solutions/PROBLEM/sample_K/{answer.md, kernel.cu, plan.json}
#pragma once

#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/common/dtype.h"
#include "src/generate/response_cache.h"
#include "src/model/model_client.h"
#include "src/prompt/prompt.h"
#include "src/results/run_info.h"
#include "src/shard/shard.h"

namespace pkb::generate {

struct ProblemPrompt {
  std::string key;  // "001_allreduce"
  int id = 0;
  int world = 0;
  DType dtype = DType::bf16;
  prompt::Prompt prompt;
};

/// The problem's entry in run.json; `category` is known only where the spec was loaded.
results::RunProblem run_problem(const ProblemPrompt& problem, const std::string& category = "");

struct GenerateConfig {
  model::ModelSpec model;
  SamplingParams params;
  std::vector<ProblemPrompt> problems;
  int samples = 1;
  int jobs = 1;
  std::filesystem::path out;
  bool resume = false;
  /// Everything that makes two runs comparable; --resume refuses a directory whose run.json
  /// differs.
  nlohmann::json fingerprint;
  /// More for run.json (command line, versions, flags); never holds a key.
  nlohmann::json run_info;
  const std::atomic<bool>* cancel = nullptr;
  /// --shard I/N: only this part of problems x samples (src/shard/shard.h); run.json says which.
  shard::Shard shard;
};

/// Counters for progress lines, updated by the workers.
struct GenerateStats {
  std::atomic<int> total{0};
  std::atomic<int> resumed{0};  // already finished in an earlier run
  std::atomic<int> done{0};     // finished in this run
  std::atomic<int> cached{0};   // of `done`, answered from the response cache
  std::atomic<int> generated{0};
  std::atomic<long long> output_tokens{0};
  std::atomic<int> timeouts_after_accept{0};  // requests that timed out once the provider had them
  std::mutex mutex;
  std::map<std::string, int> failures;  // "api_error", "format_error: truncated", ...
  std::string resolved_model;           // the first model id the provider reported
};

struct GenerateSummary {
  int total = 0, resumed = 0, generated = 0, format_errors = 0, api_errors = 0, cached = 0;
  int timeouts_after_accept = 0;
  int unasked = 0;      // samples never asked because the run stopped (--resume asks them)
  std::string stopped;  // why the run stopped early (the client's stop reason); empty if it did not
  bool cancelled = false;
};

/// Checks `config.out` before anything is written: it can be made and written, and it holds no
/// run (or, with --resume, one whose run.json fingerprint equals config.fingerprint). Throws
/// pkb::UsageError naming --out or the differing fingerprint field.
void check_out_dir(const GenerateConfig& config);

/// Checks and prepares `config.out` (throws pkb::UsageError for an unwritable directory, one that
/// holds another run without --resume, a --resume whose settings differ, or one locked by another
/// process) before anything is written, then runs. Failed samples are values in samples.jsonl.
GenerateSummary run_generation(const GenerateConfig& config, model::ModelClient& client,
                               GenerateStats& stats);

}  // namespace pkb::generate
