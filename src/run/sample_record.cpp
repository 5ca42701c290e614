// Evaluation fields of a sample record. The worker's own objects (trials, device, timing) are
// copied as they are, so a field the worker adds reaches samples.jsonl without a change here.
#include "src/run/sample_record.h"

#include "src/results/durable_file.h"
#include "src/results/schema.h"

namespace pkb::run {
namespace {

constexpr std::size_t kLogLimit = 4096;

std::string trim_log(const std::string& log) {
  if (log.size() <= kLogLimit) return log;
  return "[... " + std::to_string(log.size() - kLogLimit) + " bytes cut]\n" +
         log.substr(log.size() - kLogLimit);
}

void set_common(nlohmann::json& record, const std::string& category) {
  record["schema_version"] = results::kEvaluatedSchema;
  record["category"] = category;
  record["compile"] = nullptr;
  record["plan_steps"] = 0;
  record["library_steps"] = nlohmann::json::array();
  record["warnings"] = nlohmann::json::array();
  record["eval"] = nullptr;
  record["timing"] = nullptr;
  record["speedup"] = nullptr;
  record["sol_ms"] = nullptr;  // set from the speed-of-light judgement of a timed run
  record["sol_fraction"] = nullptr;
  record["suspicious_fast"] = false;
}

}  // namespace

const char* const kEvaluationFields[] = {
    "category", "compile", "plan_steps", "library_steps", "warnings",        "eval",
    "timing",   "speedup", "sol_ms",     "sol_fraction",  "suspicious_fast", nullptr};

nlohmann::json unevaluated_record(nlohmann::json generation, const std::string& category) {
  set_common(generation, category);
  return generation;
}

nlohmann::json evaluated_record(nlohmann::json record, const std::string& category,
                                const eval::EvalOutcome& outcome, const std::string& arch,
                                const std::string& no_gpu_reason,
                                const std::filesystem::path& out) {
  set_common(record, category);
  record["status"] = std::string(results::status_name(outcome.status));
  record["message"] = outcome.message;
  const auto& compile = outcome.compile;
  if (!compile.key.empty() || !compile.log.empty())
    record["compile"] = {{"seconds", compile.seconds},
                         {"cached", compile.cache_hit},
                         {"arch", arch},
                         {"nvrtc_version", compile.nvrtc_version},
                         {"log", trim_log(compile.log)}};
  record["plan_steps"] = outcome.plan_steps;
  record["library_steps"] = outcome.library_steps;
  record["warnings"] = outcome.warnings;
  const nlohmann::json& run = outcome.run;
  if (run.is_object()) {
    record["eval"] = {{"stage", run.value("stage", "")},
                      {"seconds", run.value("seconds", nlohmann::json())},
                      {"trials", run.value("trials", nlohmann::json::array())},
                      {"device", run.value("device", nlohmann::json())},
                      {"no_gpu_reason", nullptr}};
    if (run.contains("timing") && run["timing"].is_object()) {
      record["timing"] = run["timing"];
      if (outcome.status == results::SampleStatus::correct && run["timing"].contains("speedup"))
        record["speedup"] = run["timing"]["speedup"];
    }
    if (outcome.sol) {
      record["sol_ms"] = outcome.sol->sol_ms;
      record["sol_fraction"] = outcome.sol->sol_fraction;
      record["suspicious_fast"] = outcome.sol->suspicious_fast;
      record["sol"] = {{"binding", outcome.sol->binding}, {"profile", outcome.sol->profile}};
    } else if (!outcome.sol_note.empty()) {
      record["sol"] = {{"note", outcome.sol_note}};
    }
  } else if (outcome.status == results::SampleStatus::compiled) {
    record["eval"] = {{"stage", "compiled"},
                      {"seconds", nullptr},
                      {"trials", nlohmann::json::array()},
                      {"device", nullptr},
                      {"no_gpu_reason", no_gpu_reason}};
  }
  std::string log = compile.log;
  if (run.is_object() && !run.value("log", "").empty())
    log += (log.empty() ? "" : "\n") + std::string("--- worker ---\n") + run.value("log", "");
  if (!log.empty()) {
    const int turn = record.value("turn", 0);
    const std::string path = "logs/" + record.value("problem", "") + "/sample_" +
                             std::to_string(record.value("sample", 0)) +
                             (turn > 0 ? ".turn_" + std::to_string(turn) : std::string()) +
                             ".txt";
    results::write_file_atomic(out / path, log, false);
    record["artifacts"]["log"] = path;
  }
  return record;
}

nlohmann::json generation_record(nlohmann::json record) {
  const std::string status = record.value("status", "");
  for (int index = 0; kEvaluationFields[index] != nullptr; ++index)
    record.erase(kEvaluationFields[index]);
  if (status != "api_error" && status != "format_error") {
    record["status"] = "generated";
    record.erase("message");
    if (record.contains("artifacts") && record["artifacts"].is_object())
      record["artifacts"].erase("log");
  }
  record["schema_version"] = results::kGenerationSchema;
  return record;
}

}  // namespace pkb::run
