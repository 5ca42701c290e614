// The generation loop. A sample's cache entry is written before its solution files and its
// samples.jsonl line, so a crash between them costs no second request: --resume finds the entry.
// Only those two are flushed to disk (fsync); the solution files are derived from the entry.
#include "src/generate/generator.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <thread>

#include "src/common/error.h"
#include "src/extract/extract.h"
#include "src/generate/durable_file.h"
#include "src/generate/run_lock.h"
#include "src/generate/samples_log.h"

namespace pkb::generate {
namespace {

struct WorkItem {
  const ProblemPrompt* problem;
  int sample;
};

std::string sample_dir(const ProblemPrompt& problem, int sample) {
  return "solutions/" + problem.key + "/sample_" + std::to_string(sample);
}

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
    const auto existing = nlohmann::json::parse(read_file(run_json), nullptr, false);
    if (existing.is_discarded() || !existing.contains("fingerprint"))
      throw InputError(run_json.string() +
                       ": fingerprint: expected the settings of a pkb generate run, got none");
    for (const auto& [name, value] : config.fingerprint.items())
      if (!existing["fingerprint"].contains(name) || existing["fingerprint"][name] != value)
        throw UsageError("--resume: " + out.string() + " was generated with " + name + " = " +
                         (existing["fingerprint"].contains(name)
                              ? existing["fingerprint"][name].dump()
                              : "(unset)") +
                         ", not " + value.dump());
  } else if (!std::filesystem::is_empty(out) &&
             !(std::filesystem::exists(out / ".lock") &&
               std::distance(std::filesystem::directory_iterator(out),
                             std::filesystem::directory_iterator()) == 1)) {
    throw UsageError(flag + ": not empty and holds no run.json; choose an empty or new directory");
  }
}

nlohmann::json run_json(const GenerateConfig& config, const std::string& started) {
  nlohmann::json problems = nlohmann::json::array();
  for (const auto& problem : config.problems)
    problems.push_back({{"key", problem.key},
                        {"world", problem.world},
                        {"dtype", dtype_name(problem.dtype)},
                        {"prompt_sha256", problem.prompt.sha256}});
  nlohmann::json doc = config.run_info;
  doc["schema_version"] = kResultsSchema;
  doc["kind"] = "generate";
  doc["pkb_version"] = PKB_VERSION;
  doc["git_commit"] = PKB_GIT_COMMIT;
  doc["started"] = started;
  doc["fingerprint"] = config.fingerprint;
  doc["samples_per_problem"] = config.samples;
  doc["problems"] = problems;
  return doc;
}

class Worker {
 public:
  Worker(const GenerateConfig& config, model::ModelClient& client, GenerateStats& stats,
         SamplesLog& log)
      : config_(config),
        client_(client),
        stats_(stats),
        log_(log),
        cache_(config.out / "responses") {}

  void process(const WorkItem& item) {
    const ProblemPrompt& problem = *item.problem;
    const CacheKey key =
        make_cache_key(config_.model, problem.prompt.sha256, config_.params, item.sample);
    nlohmann::json record = {{"schema_version", kResultsSchema},
                             {"problem", problem.key},
                             {"problem_id", problem.id},
                             {"sample", item.sample},
                             {"turn", 0},
                             {"world", problem.world},
                             {"dtype", dtype_name(problem.dtype)},
                             {"prompt_sha256", problem.prompt.sha256},
                             {"cache_key", key.sha256}};
    std::optional<CacheEntry> entry = cache_.load(key);
    const bool from_cache = entry.has_value();
    model::ModelOutcome outcome;
    if (!entry) {
      model::ModelRequest request;
      request.user = problem.prompt.text;
      request.max_tokens = config_.params.max_tokens;
      if (config_.params.temperature) request.temperature = std::stod(*config_.params.temperature);
      request.reasoning = config_.params.reasoning;
      request.sample_index = item.sample;
      request.label = problem.key + "#" + std::to_string(item.sample);
      outcome = client_.generate(request);
      if (!outcome.ok() && config_.cancel && config_.cancel->load())
        return;  // asked again on --resume
      record["attempts"] = outcome.attempts.size();
      record["latency_s"] = outcome.latency_s;
      record["request_id"] = outcome.request_id;
      if (!outcome.ok()) {
        record["status"] = "api_error";
        record["message"] = outcome.failure->message;
        record["failure_kind"] = std::string(model::failure_kind_name(outcome.failure->kind));
        record["http_status"] = outcome.failure->http_status;
        finish(record, "api_error");
        return;
      }
      entry = CacheEntry{key,
                         outcome.request_body,
                         outcome.http_status,
                         outcome.request_id,
                         outcome.raw_response,
                         *outcome.result,
                         static_cast<int>(outcome.attempts.size()),
                         outcome.latency_s,
                         utc_now_iso()};
      cache_.store(*entry);
    } else {
      record["attempts"] = 0;
      record["latency_s"] = entry->latency_s;
      record["request_id"] = entry->request_id;
    }
    record["from_cache"] = from_cache;
    describe_answer(problem, item.sample, *entry, record);
  }

 private:
  void describe_answer(const ProblemPrompt& problem, int sample, const CacheEntry& entry,
                       nlohmann::json& record) {
    const model::ModelResult& result = entry.result;
    record["model"] = result.model;
    note_resolved_model(result.model);
    record["response_id"] = result.response_id;
    record["stop_reason"] = std::string(model::stop_reason_name(result.stop));
    record["raw_stop_reason"] = result.raw_stop;
    record["usage"] = model::to_json(result.usage);
    if (result.usage.output) stats_.output_tokens += *result.usage.output;
    const std::string dir = sample_dir(problem, sample);
    write_file_atomic(config_.out / dir / "answer.md", result.text, false);
    nlohmann::json artifacts = {
        {"response", cache_.path_of(entry.key.sha256).lexically_relative(config_.out).string()},
        {"answer", dir + "/answer.md"}};
    extract::Extraction extraction;
    if (result.stop == model::StopReason::refused) {
      extraction.error = extract::FormatReason::refused;
      extraction.message = "the model refused (" + result.raw_stop + ")";
    } else if (result.stop == model::StopReason::filtered) {
      extraction.error = extract::FormatReason::filtered;
      extraction.message = "the provider withheld the answer (" + result.raw_stop + ")";
    } else {
      extraction =
          extract::extract_solution(result.text, result.stop == model::StopReason::truncated);
    }
    record["cuda_blocks"] = extraction.cuda_blocks;
    record["json_blocks"] = extraction.json_blocks;
    record["message"] = extraction.message;
    if (!extraction.ok()) {
      record["status"] = "format_error";
      record["format_reason"] = std::string(extract::format_reason_name(*extraction.error));
    } else {
      record["status"] = "generated";
      record["cuda_alias_used"] = extraction.cuda_alias_used;
      write_file_atomic(config_.out / dir / "kernel.cu", extraction.cuda, false);
      write_file_atomic(config_.out / dir / "plan.json", extraction.plan_json, false);
      artifacts["cuda"] = dir + "/kernel.cu";
      artifacts["plan"] = dir + "/plan.json";
    }
    record["artifacts"] = artifacts;
    finish(record,
           extraction.ok()
               ? ""
               : "format_error: " + std::string(extract::format_reason_name(*extraction.error)));
    if (record.value("from_cache", false)) ++stats_.cached;
  }

  // An alias that moves mid-run mixes two models in one result (research/model-apis.md §10).
  void note_resolved_model(const std::string& model) {
    if (model.empty()) return;
    std::lock_guard<std::mutex> lock(stats_.mutex);
    if (stats_.resolved_model.empty()) {
      stats_.resolved_model = model;
    } else if (stats_.resolved_model != model) {
      spdlog::warn(
          "generate: the provider answered as {} after {}: the model alias moved during the run; "
          "pin a "
          "model id to compare like with like",
          model, stats_.resolved_model);
      stats_.resolved_model = model;
    }
  }

  void finish(nlohmann::json& record, const std::string& failure) {
    record["time"] = utc_now_iso();
    log_.append(record);
    if (failure.empty()) {
      ++stats_.generated;
    } else {
      std::lock_guard<std::mutex> lock(stats_.mutex);
      ++stats_.failures[failure];
    }
    ++stats_.done;
  }

  const GenerateConfig& config_;
  model::ModelClient& client_;
  GenerateStats& stats_;
  SamplesLog& log_;
  ResponseCache cache_;
};

}  // namespace

GenerateSummary run_generation(const GenerateConfig& config, model::ModelClient& client,
                               GenerateStats& stats) {
  check_out_dir(config);
  RunLock lock(config.out);
  const std::string started = utc_now_iso();
  const auto samples_path = config.out / "samples.jsonl";
  const ResumeState resume = prepare_resume(samples_path);
  std::vector<WorkItem> work;
  int resumed = 0;
  for (const auto& problem : config.problems)
    for (int sample = 0; sample < config.samples; ++sample) {
      if (resume.finished.count({problem.key, sample}))
        ++resumed;
      else
        work.push_back({&problem, sample});
    }
  stats.total = static_cast<int>(work.size()) + resumed;
  stats.resumed = resumed;
  nlohmann::json doc = run_json(config, started);
  doc["resumed_samples"] = resumed;
  write_file_atomic(config.out / "run.json", doc.dump(2) + "\n");

  SamplesLog log(samples_path);
  std::atomic<std::size_t> next{0};
  std::mutex error_mutex;
  std::exception_ptr first_error;
  auto worker_loop = [&] {
    Worker worker(config, client, stats, log);
    while (true) {
      if (config.cancel && config.cancel->load()) return;
      const std::size_t index = next++;
      if (index >= work.size()) return;
      try {
        worker.process(work[index]);
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
  doc["finished"] = utc_now_iso();
  doc["summary"] = {{"total", summary.total},           {"resumed", summary.resumed},
                    {"generated", summary.generated},   {"format_errors", summary.format_errors},
                    {"api_errors", summary.api_errors}, {"from_cache", summary.cached},
                    {"cancelled", summary.cancelled}};
  write_file_atomic(config.out / "run.json", doc.dump(2) + "\n");
  return summary;
}

}  // namespace pkb::generate
