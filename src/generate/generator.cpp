// The generation loop of `pkb generate`: J threads take samples in order, generate each
// (sample_generator.h) and append its record.
#include "src/generate/generator.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <thread>

#include "src/common/error.h"
#include "src/extract/extract.h"
#include "src/results/durable_file.h"
#include "src/results/run_file.h"
#include "src/results/run_lock.h"
#include "src/generate/sample_generator.h"
#include "src/results/samples_file.h"
#include "src/results/schema.h"

namespace pkb::generate {
namespace {

struct WorkItem {
  const ProblemPrompt* problem;
  int sample;
};

}  // namespace

// Everything before the first written byte: the directory can be made and written, it holds no
// other run (or the same run, with --resume), and no other process writes to it.
void check_out_dir(const GenerateConfig& config) {
  const auto& out = config.out;
  const std::string flag = "--out " + out.string();
  std::error_code error;
  std::filesystem::create_directories(out, error);
  if (error) throw UsageError(flag + ": cannot create: " + error.message());
  if (!std::filesystem::is_directory(out)) throw UsageError(flag + ": not a directory");
  if (::access(out.c_str(), W_OK) != 0) throw UsageError(flag + ": not writable");
  const auto run_json = out / "run.json";
  if (std::filesystem::exists(run_json)) {
    if (!config.resume)
      throw UsageError(flag + ": already holds a run (run.json); pass --resume to continue it");
    const auto existing = results::read_run_file(out);
    if (!existing.contains("fingerprint"))
      throw InputError(run_json.string() +
                       ": fingerprint: expected the settings of a pkb generate run, got none");
    // Both ways: a field only the directory has (e.g. no_timing) differs as much as a value.
    if (const auto difference =
            results::fingerprint_difference(existing["fingerprint"], config.fingerprint))
      throw UsageError("--resume: " + out.string() + " was generated with " + difference->field +
                       " = " + difference->first + ", not " + difference->other);
    const nlohmann::json shard = existing.value("shard", nlohmann::json());
    if (shard != shard::shard_json(config.shard))
      throw UsageError(
          "--resume: " + out.string() + " holds " +
          (shard.is_null()
               ? std::string("the whole run")
               : "shard " + shard::shard_text({shard.value("index", 0), shard.value("count", 1)})) +
          ", not " +
          (config.shard.whole() ? std::string("the whole run") : shard::shard_text(config.shard)));
  } else if (!std::filesystem::is_empty(out) &&
             !(std::filesystem::exists(out / ".lock") &&
               std::distance(std::filesystem::directory_iterator(out),
                             std::filesystem::directory_iterator()) == 1)) {
    throw UsageError(flag + ": not empty and holds no run.json; choose an empty or new directory");
  }
}

results::RunProblem run_problem(const ProblemPrompt& problem, const std::string& category) {
  results::RunProblem entry;
  entry.key = problem.key;
  entry.category = category;
  entry.id = problem.id;
  entry.world = problem.world;
  entry.dtype = dtype_name(problem.dtype);
  entry.prompt_sha256 = problem.prompt.sha256;
  return entry;
}

namespace {

nlohmann::json run_json(const GenerateConfig& config, const std::string& started) {
  std::vector<results::RunProblem> problems;
  for (const auto& problem : config.problems) problems.push_back(run_problem(problem));
  nlohmann::json doc = config.run_info;
  doc["schema_version"] = results::kGenerationSchema;
  doc["kind"] = "generate";
  doc["pkb_version"] = PKB_VERSION;
  doc["git_commit"] = PKB_GIT_COMMIT;
  doc["started"] = started;
  doc["fingerprint"] = config.fingerprint;
  doc["samples_per_problem"] = config.samples;
  doc["problems"] = results::to_json(problems);
  if (!config.shard.whole()) doc["shard"] = shard::shard_json(config.shard);
  return doc;
}

}  // namespace

GenerateSummary run_generation(const GenerateConfig& config, model::ModelClient& client,
                               GenerateStats& stats) {
  check_out_dir(config);
  results::RunLock lock(config.out);
  const std::string started = results::utc_now_iso();
  const auto samples_path = config.out / "samples.jsonl";
  const results::ResumeState resume = results::prepare_resume(samples_path);
  std::vector<WorkItem> work;
  int resumed = 0;
  std::vector<std::string> keys;
  for (const auto& problem : config.problems) keys.push_back(problem.key);
  const shard::ShardFilter in_shard(keys, config.samples, config.shard);
  for (const auto& problem : config.problems)
    for (int sample = 0; sample < config.samples; ++sample) {
      if (!in_shard.owns(problem.key, sample)) continue;
      if (resume.finished.count({problem.key, sample}))
        ++resumed;
      else
        work.push_back({&problem, sample});
    }
  stats.total = static_cast<int>(work.size()) + resumed;
  stats.resumed = resumed;
  nlohmann::json doc = run_json(config, started);
  doc["resumed_samples"] = resumed;
  results::write_run_file(config.out, doc);

  results::SamplesLog log(samples_path);
  std::atomic<std::size_t> next{0};
  std::mutex error_mutex;
  std::exception_ptr first_error;
  auto worker_loop = [&] {
    SampleGenerator generator(config, client, stats);
    while (true) {
      if (config.cancel && config.cancel->load()) return;
      if (!client.stop_reason().empty()) return;  // left unasked: --resume continues
      const std::size_t index = next++;
      if (index >= work.size()) return;
      try {
        const auto record = generator.generate(*work[index].problem, work[index].sample);
        if (!record) continue;  // cancelled: asked again on --resume
        log.append(*record);
        count_generated(*record, stats);
      } catch (...) {  // an I/O failure of pkb's own: stop the run, keep what is recorded
        std::lock_guard<std::mutex> guard(error_mutex);
        if (!first_error) first_error = std::current_exception();
        next = work.size();
      }
    }
  };
  std::vector<std::thread> threads;
  const int jobs = std::max(1, std::min<int>(config.jobs, static_cast<int>(work.size())));
  for (int index = 0; index < jobs; ++index) threads.emplace_back(worker_loop);
  for (auto& thread : threads) thread.join();
  if (first_error) std::rethrow_exception(first_error);

  GenerateSummary summary;
  summary.total = stats.total;
  summary.resumed = resumed;
  summary.generated = stats.generated;
  summary.cached = stats.cached;
  for (const auto& [kind, count] : stats.failures)
    (kind == "api_error" ? summary.api_errors : summary.format_errors) += count;
  summary.cancelled = config.cancel && config.cancel->load();
  summary.timeouts_after_accept = stats.timeouts_after_accept;
  summary.stopped = client.stop_reason();
  summary.unasked = summary.total - summary.resumed - stats.done;
  doc["finished"] = results::utc_now_iso();
  doc["summary"] = {
      {"total", summary.total},
      {"resumed", summary.resumed},
      {"generated", summary.generated},
      {"format_errors", summary.format_errors},
      {"api_errors", summary.api_errors},
      {"from_cache", summary.cached},
      {"timeouts_after_accept", summary.timeouts_after_accept},
      {"unasked", summary.unasked},
      {"stopped", summary.stopped.empty() ? nlohmann::json() : nlohmann::json(summary.stopped)},
      {"cancelled", summary.cancelled}};
  results::write_run_file(config.out, doc);
  return summary;
}

}  // namespace pkb::generate
