// judge_record: one branch per status. Every line comes from a named field of the record (a
// whitelist); the record itself is never printed, so fields added later (seeds, expected values,
// worker logs) cannot reach a model by accident.
#include "src/feedback/status_details.h"

#include "src/common/error.h"
#include "src/feedback/compile_errors.h"
#include "src/feedback/redact.h"
#include "src/feedback/run_failure.h"
#include "src/feedback/timing_text.h"
#include "src/feedback/trial_table.h"
#include "src/results/sample_status.h"

namespace pkb::feedback {
namespace {

using results::SampleStatus;

constexpr std::size_t kMaxLineChars = 300;

const char* verdict_text(SampleStatus status) {
  switch (status) {
    case SampleStatus::format_error:
      return "format_error: the answer had no usable ```cuda block and ```json plan block, so "
             "nothing was compiled";
    case SampleStatus::compile_error: return "compile_error: NVRTC rejected the CUDA source";
    case SampleStatus::plan_error:
      return "plan_error: the source compiled, but the plan does not fit the kernels or the "
             "problem";
    case SampleStatus::runtime_error:
      return "runtime_error: the solution compiled and its plan fit, but running it failed (a "
             "CUDA error or a crash)";
    case SampleStatus::timeout:
      return "timeout: the solution did not finish in time (a hang, e.g. a rank waiting for a "
             "signal that never comes, or far too slow)";
    case SampleStatus::incorrect:
      return "incorrect: it ran, but some output on some rank differs from the reference beyond "
             "the tolerance";
    case SampleStatus::correct:
      return "correct: every output on every rank matched the reference in every trial";
    case SampleStatus::compiled:
      return "compiled: the source compiled and the plan fits, but it could not be run here";
    case SampleStatus::api_error: break;
  }
  return "";
}

std::string line(const std::string& name, const std::string& value) {
  return clip_line(name + ": " + redact_paths(value), kMaxLineChars) + "\n";
}

const results::Evaluation& evaluation_of(const results::Record& record) {
  static const results::Evaluation kNone;
  return record.evaluation ? *record.evaluation : kNone;
}

std::string message_of(const results::Record& record) { return record.message.value_or(""); }

std::string format_details(const results::Record& record) {
  std::string out;
  if (record.format_reason && !record.format_reason->empty())
    out += line("format reason", *record.format_reason);
  out += line("message", message_of(record));
  if (record.cuda_blocks && record.json_blocks)
    out += "blocks found: " + std::to_string(*record.cuda_blocks) + " ```cuda, " +
           std::to_string(*record.json_blocks) + " ```json\n";
  return out;
}

std::string compile_details(const results::Record& record, const std::string& compile_log) {
  const auto& compile = evaluation_of(record).compile;
  const std::string log = compile_log.empty() && compile ? compile->log : compile_log;
  const std::string excerpt = compile_error_excerpt(log);
  // No error line: NVRTC timed out or failed without a diagnostic; the message says which.
  return excerpt.empty() ? line("message", message_of(record)) : excerpt;
}

std::string incorrect_details(const results::Record& record) {
  // The message names the failing check; the values it may quote are cut off.
  std::string out = line("failed check", drop_values(message_of(record)));
  const auto& eval = evaluation_of(record).eval;
  const std::string table = eval ? trial_table(results::trial_results(*eval)) : "";
  if (table.empty()) return out;
  return out + "\n" + table +
         "\nerror_ratio: the largest error over the reference's own rounding error in this "
         "precision\nmismatches: elements beyond the tolerance; first_bad_index: the first of "
         "them\nskewed: the ranks started with random delays (a race shows up there)\n";
}

// The plan parser's messages start with "plan: "; the line's own name says it already.
std::string plan_message(const std::string& message) {
  return message.rfind("plan: ", 0) == 0 ? message.substr(6) : message;
}

std::string compiled_details(const results::Record& record) {
  const results::Evaluation& evaluation = evaluation_of(record);
  std::string out = "the source compiled";
  if (evaluation.compile && !evaluation.compile->arch.empty())
    out += " for " + evaluation.compile->arch;
  out += " and the plan fits the problem";
  if (record.evaluation) {
    const int steps = evaluation.plan_steps;
    out += " (" + std::to_string(steps) + " plan step" + (steps == 1 ? "" : "s") + ")";
  }
  return out + "; correctness and speed were not judged\n";
}

std::string no_gpu_note(const results::Record& record) {
  const auto& eval = evaluation_of(record).eval;
  const std::string reason = redact_paths(eval ? eval->no_gpu_reason.value_or("") : "");
  return "not run on a GPU" + (reason.empty() ? std::string() : ": " + reason);
}

}  // namespace

Judgement judge_record(const results::Record& record, const std::string& compile_log) {
  const std::string& name = record.status;
  const auto status = results::parse_status(name);
  if (!status) throw InputError("record: status: expected a sample status, got \"" + name + "\"");
  if (*status == SampleStatus::api_error)
    throw Error("feedback: an api_error record has no answer to give feedback on");
  Judgement judgement{name, verdict_text(*status), "", "", ""};
  switch (*status) {
    case SampleStatus::format_error:
      judgement.scope = "format";
      judgement.details = format_details(record);
      break;
    case SampleStatus::compile_error:
      judgement.scope = "compile";
      judgement.details = compile_details(record, compile_log);
      break;
    case SampleStatus::plan_error:
      judgement.scope = "plan";
      judgement.details = line("plan error", plan_message(message_of(record)));
      break;
    case SampleStatus::compiled:
      judgement.scope = "plan";
      judgement.details = compiled_details(record);
      judgement.note = no_gpu_note(record);
      break;
    case SampleStatus::runtime_error:
    case SampleStatus::timeout:
      judgement.scope = "run";
      judgement.details = run_failure_details(record);
      break;
    case SampleStatus::incorrect:
      judgement.scope = "correctness";
      judgement.details = incorrect_details(record);
      break;
    case SampleStatus::correct:
      judgement.details = timing_details(record);
      // Correct but never timed (timing null): the machine judged correctness, not speed.
      judgement.scope = judgement.details.empty() ? "correctness" : "timing";
      if (judgement.details.empty())
        judgement.note = "not timed";
      else if (timing_emulated(record))
        judgement.note = "timing emulated: ranks shared a GPU, so the speed is not trusted";
      break;
    case SampleStatus::api_error: break;
  }
  return judgement;
}

}  // namespace pkb::feedback
