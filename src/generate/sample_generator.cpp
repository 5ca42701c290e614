// A sample's cache entry is written before its solution files and its samples.jsonl line, so a
// crash between them costs no second request: --resume finds the entry. Only those two are
// flushed to disk (fsync); the solution files are derived from the entry.
#include "src/generate/sample_generator.h"

#include <spdlog/spdlog.h>

#include "src/extract/extract.h"
#include "src/results/durable_file.h"
#include "src/results/schema.h"

namespace pkb::generate {

std::string sample_dir(const std::string& problem_key, int sample, int turn) {
  return "solutions/" + problem_key + "/sample_" + std::to_string(sample) +
         (turn > 0 ? "/turn_" + std::to_string(turn) : std::string());
}

SampleGenerator::SampleGenerator(const GenerateConfig& config, model::ModelClient& client,
                                 GenerateStats& stats)
    : config_(config), client_(client), stats_(stats), cache_(config.out / "responses") {}

std::optional<results::Record> SampleGenerator::generate(const ProblemPrompt& problem, int sample,
                                                         const TurnInput& turn) {
  const std::string& user = turn.user.empty() ? problem.prompt.text : turn.user;
  // A first turn keys on the prompt's hash as before, so one-turn caches stay valid; a later
  // turn keys on the whole conversation, and on the budget-lowered output cap if there is one.
  const std::string shown_sha =
      turn.history.empty() ? problem.prompt.sha256 : model::conversation_sha256(turn.history, user);
  SamplingParams params = config_.params;
  if (turn.max_tokens > 0) params.max_tokens = turn.max_tokens;
  const CacheKey key = make_cache_key(config_.model, shown_sha, params, sample);
  results::Record record;
  record.schema_version = results::kGenerationSchema;
  record.problem = problem.key;
  record.problem_id = problem.id;
  record.sample = sample;
  record.turn = turn.turn;
  record.world = problem.world;
  record.dtype = dtype_name(problem.dtype);
  record.prompt_sha256 = problem.prompt.sha256;
  record.cache_key = key.sha256;
  if (turn.turn > 0) record.conversation_sha256 = shown_sha;
  std::optional<CacheEntry> entry = cache_.load(key);
  const bool from_cache = entry.has_value();
  if (!entry) {
    model::ModelRequest request;
    request.history = turn.history;
    request.user = user;
    request.turn = turn.turn;
    request.max_tokens = params.max_tokens;
    if (config_.params.temperature) request.temperature = std::stod(*config_.params.temperature);
    request.reasoning = config_.params.reasoning;
    request.sample_index = sample;
    request.label = problem.key + "#" + std::to_string(sample);  // replay:DIR reads the key here
    const model::ModelOutcome outcome = client_.generate(request);
    if (!outcome.ok() && config_.cancel && config_.cancel->load()) return std::nullopt;
    // The run stopped (a dead endpoint, a stopped provider) before this sample got an answer from
    // the server: it stays unasked, and --resume asks it.
    if (!outcome.ok() && (outcome.failure->kind == model::FailureKind::stop_run ||
                          (outcome.attempts.empty() && !client_.stop_reason().empty())))
      return std::nullopt;
    record.attempts = static_cast<int>(outcome.attempts.size());
    record.latency_s = outcome.latency_s;
    record.request_id = outcome.request_id;
    record.request_adjustments = outcome.adjustments;
    if (outcome.timeouts_after_accept > 0) {
      record.timeouts_after_accept = outcome.timeouts_after_accept;
      stats_.timeouts_after_accept += outcome.timeouts_after_accept;
    }
    if (!outcome.ok()) {
      record.status = "api_error";
      record.message = outcome.failure->message;
      record.failure_kind = std::string(model::failure_kind_name(outcome.failure->kind));
      record.http_status = outcome.failure->http_status;
      record.time = results::utc_now_iso();
      return record;
    }
    entry = CacheEntry{key,
                       outcome.request_body,
                       outcome.http_status,
                       outcome.request_id,
                       outcome.raw_response,
                       *outcome.result,
                       static_cast<int>(outcome.attempts.size()),
                       outcome.latency_s,
                       results::utc_now_iso(),
                       outcome.adjustments};
    cache_.store(*entry);
  } else {
    record.attempts = 0;
    record.latency_s = entry->latency_s;
    record.request_id = entry->request_id;
    record.request_adjustments = entry->adjustments;
  }
  record.from_cache = from_cache;
  describe_answer(sample_dir(problem.key, sample, turn.turn), *entry, record);
  record.time = results::utc_now_iso();
  return record;
}

void SampleGenerator::describe_answer(const std::string& dir, const CacheEntry& entry,
                                      results::Record& record) {
  const model::ModelResult& result = entry.result;
  record.model = result.model;
  note_resolved_model(result.model);
  record.response_id = result.response_id;
  record.stop_reason = std::string(model::stop_reason_name(result.stop));
  record.raw_stop_reason = result.raw_stop;
  record.usage = results::TokenUsage{result.usage.input, result.usage.cached, result.usage.output,
                                     result.usage.reasoning};
  results::write_file_atomic(config_.out / dir / "answer.md", result.text, false);
  results::Artifacts artifacts;
  artifacts.response = cache_.path_of(entry.key.sha256).lexically_relative(config_.out).string();
  artifacts.answer = dir + "/answer.md";
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
  record.cuda_blocks = extraction.cuda_blocks;
  record.json_blocks = extraction.json_blocks;
  record.message = extraction.message;
  if (!extraction.ok()) {
    record.status = "format_error";
    record.format_reason = std::string(extract::format_reason_name(*extraction.error));
  } else {
    record.status = "generated";
    record.cuda_alias_used = extraction.cuda_alias_used;
    results::write_file_atomic(config_.out / dir / "kernel.cu", extraction.cuda, false);
    results::write_file_atomic(config_.out / dir / "plan.json", extraction.plan_json, false);
    artifacts.cuda = dir + "/kernel.cu";
    artifacts.plan = dir + "/plan.json";
  }
  record.artifacts = std::move(artifacts);
}

// An alias that moves mid-run mixes two models in one result.
void SampleGenerator::note_resolved_model(const std::string& model) {
  if (model.empty()) return;
  std::lock_guard<std::mutex> lock(stats_.mutex);
  if (stats_.resolved_model.empty()) {
    stats_.resolved_model = model;
  } else if (stats_.resolved_model != model) {
    spdlog::warn(
        "generate: the provider answered as {} after {}: the model alias moved during the run; pin "
        "a model id to compare like with like",
        model, stats_.resolved_model);
    stats_.resolved_model = model;
  }
}

void count_generated(const results::Record& record, GenerateStats& stats) {
  stats.output_tokens += record.output_tokens().value_or(0);
  if (record.status == "generated") {
    ++stats.generated;
  } else {
    std::lock_guard<std::mutex> lock(stats.mutex);
    ++stats.failures[record.status == "api_error"
                         ? std::string("api_error")
                         : "format_error: " + record.format_reason.value_or("")];
  }
  if (record.from_cache.value_or(false)) ++stats.cached;
  ++stats.done;
}

}  // namespace pkb::generate
