// One line of samples.jsonl or generate.jsonl, typed (docs/RESULTS.md): what generate, run,
// evaluate, feedback and score hand each other. JSON exists only at the file's edge:
// record_from_json reads a line, to_json writes one.
//
// The worker's own objects (eval.trials, eval.device, timing) stay the documents the worker wrote,
// so a field it adds reaches samples.jsonl without a change here; trial_results() and
// timing_summary() read what pkb itself uses from them. Fields this type does not name are kept in
// `other` and written back unchanged: a rewrite (pkb evaluate) never loses what a newer pkb added.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/results/sample_status.h"

namespace pkb::results {

struct TokenUsage {  // usage: null where the provider did not report it
  std::optional<std::int64_t> input_tokens, cached_input_tokens, output_tokens, reasoning_tokens;
};

struct Artifacts {  // paths relative to the results directory; "" when there is none
  std::string response, answer, cuda, plan, log;
};

struct CompileInfo {
  double seconds = 0;
  bool cached = false;
  std::string arch, nvrtc_version;
  std::string log;  // the last 4 KiB; artifacts.log has all of it
};

struct EvalInfo {
  std::string stage;  // "compiled", or the worker's stage (run, check, done, ...)
  std::optional<double> seconds;
  nlohmann::json trials = nlohmann::json::array();  // the worker's trial objects, as written
  nlohmann::json device;                            // the worker's device object, or null
  std::optional<std::string> no_gpu_reason;         // why a `compiled` sample did not run
  // Who gave the verdict: "gpu" or "sim" (the simulated node: verdicts, never timings); absent
  // in records written before the simulated node existed (those ran on GPUs or not at all).
  std::optional<std::string> judged_by;
  nlohmann::json simulation;  // the simulated node's {schedule_seed, lane_instructions, ...}, or null
  // The shapes the sample was judged at, main first: [{dims, trials, kind, num_sms?}]; null in
  // records written before samples ran at drawn shapes.
  nlohmann::json shapes;
};

struct SolInfo {  // `sol`: {binding, profile} when judged, {note} when not
  std::string binding, profile, note;
};

struct ConversationState {  // `conversation` (pkb run): T, tokens so far, why it ended
  int turns = 1;
  std::int64_t output_tokens = 0;
  std::optional<std::string> end;  // null while the conversation goes on
};

struct FeedbackSent {  // `feedback`: the next turn's user message and how far it judged
  std::string file, scope, note;
};

/// The fields evaluation adds (schema 2). Every one is written, null when unknown.
struct Evaluation {
  std::string category;
  std::optional<CompileInfo> compile;
  int plan_steps = 0;
  std::vector<std::string> library_steps, warnings;
  std::optional<EvalInfo> eval;
  nlohmann::json timing;  // the worker's timing object, or null when not timed
  std::optional<double> speedup, sol_ms, sol_fraction;
  bool suspicious_fast = false;
  std::optional<SolInfo> sol;  // absent when nothing was judged or noted
};

struct Record {
  int schema_version = 1;
  std::string problem;
  int problem_id = 0;
  int sample = 0;
  int turn = 0;
  int world = 0;
  std::string dtype;
  std::string prompt_sha256;
  std::optional<std::string> conversation_sha256;  // turns > 0
  std::string cache_key;
  std::string status;  // a SampleStatus name, or "generated" (answered, not evaluated)
  std::optional<std::string> message;
  // The request: absent when the run stopped before it (never written then).
  std::optional<int> attempts;
  std::optional<double> latency_s;
  std::optional<std::string> request_id;
  std::vector<nlohmann::json> request_adjustments;  // model::ModelOutcome's, as sent; [] absent
  std::optional<int> timeouts_after_accept;
  std::optional<std::string> failure_kind;  // api_error
  std::optional<int> http_status;           // api_error
  // The answer: absent for api_error.
  std::optional<std::string> model, response_id, stop_reason, raw_stop_reason;
  std::optional<TokenUsage> usage;
  std::optional<bool> from_cache;
  std::optional<int> cuda_blocks, json_blocks;
  std::optional<std::string> format_reason;  // format_error
  std::optional<bool> cuda_alias_used;
  std::optional<Artifacts> artifacts;
  std::string time;
  std::optional<Evaluation> evaluation;             // schema 2
  std::optional<ConversationState> conversation;    // pkb run
  std::optional<FeedbackSent> feedback;             // written (null or not) with `conversation`
  nlohmann::json other = nlohmann::json::object();  // fields not named above, kept as read

  std::optional<SampleStatus> sample_status() const { return parse_status(status); }
  std::optional<std::int64_t> output_tokens() const {
    return usage ? usage->output_tokens : std::nullopt;
  }
};

/// Reads one line. Throws InputError "WHERE: FIELD: expected ..., got ..." for a field of the
/// wrong type, a missing problem, sample or status, an unknown status, a speedup that is not
/// positive, or a schema_version newer than kMaxSchemaVersion. Null is read as absent.
Record record_from_json(const nlohmann::json& line, const std::string& where);

/// The line as written (keys sorted, as nlohmann's objects are).
nlohmann::json to_json(const Record& record);

/// The statuses a record may carry: every SampleStatus, in pipeline order, then "generated".
const std::vector<std::string>& known_statuses();

/// Throws InputError "WHERE: schema_version N is newer than this pkb understands (max 2)" (or a
/// missing / non-integer version).
void check_schema_version(const nlohmann::json& doc, const std::string& where);

/// What pkb reads of one trial of eval.trials.
struct TrialResult {
  bool passed = false, skewed = false;
  std::string tensor;
  std::optional<double> rank, max_abs_err, max_rel_err, error_ratio, mismatches;
  std::vector<std::int64_t> first_bad_index;  // one flat index, or coordinates; empty: none
  bool first_bad_is_coordinates = false;      // written as a list
  std::string shape;                          // the sizes it ran at ("M=4 N=8"); "" in old records
};
std::vector<TrialResult> trial_results(const EvalInfo& eval);

/// What pkb reads of the worker's timing object.
struct TimeStats {
  std::optional<double> median_us, p10_us, p90_us, iterations;
};
struct TimingSummary {
  TimeStats candidate, baseline;
  std::string baseline_kind;
  std::optional<double> speedup;
  bool emulated = false;  // ranks shared a GPU
  bool sol_flag = false;  // the worker's own speed-of-light flag (records before src/sol)
};
/// Null timing (not timed) gives nothing.
std::optional<TimingSummary> timing_summary(const nlohmann::json& timing);

}  // namespace pkb::results
