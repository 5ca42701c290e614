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

results::Evaluation& start_evaluation(results::Record& record, const std::string& category) {
  record.schema_version = results::kEvaluatedSchema;
  record.evaluation = results::Evaluation{};
  record.evaluation->category = category;
  return *record.evaluation;
}

}  // namespace

results::Record unevaluated_record(results::Record generation, const std::string& category) {
  start_evaluation(generation, category);
  return generation;
}

results::Record evaluated_record(results::Record record, const std::string& category,
                                 const eval::EvalOutcome& outcome, const std::string& arch,
                                 const std::string& no_gpu_reason,
                                 const std::filesystem::path& out) {
  results::Evaluation& evaluation = start_evaluation(record, category);
  record.status = std::string(results::status_name(outcome.status));
  record.message = outcome.message;
  const auto& compile = outcome.compile;
  if (!compile.key.empty() || !compile.log.empty())
    evaluation.compile = results::CompileInfo{compile.seconds, compile.cache_hit, arch,
                                              compile.nvrtc_version, trim_log(compile.log)};
  evaluation.plan_steps = outcome.plan_steps;
  evaluation.library_steps = outcome.library_steps;
  evaluation.warnings = outcome.warnings;
  const nlohmann::json& run = outcome.run;
  if (run.is_object()) {
    results::EvalInfo info;
    info.stage = run.value("stage", "");
    if (run.contains("seconds") && run["seconds"].is_number())
      info.seconds = run["seconds"].get<double>();
    info.trials = run.value("trials", nlohmann::json::array());
    info.device = run.value("device", nlohmann::json());
    if (!outcome.judged_by.empty()) info.judged_by = outcome.judged_by;
    info.simulation = run.value("simulation", nlohmann::json());
    if (!outcome.shapes.empty()) info.shapes = eval::shapes_json(outcome.shapes);
    if (outcome.judged_by == "sim") info.no_gpu_reason = no_gpu_reason;
    evaluation.eval = std::move(info);
    if (run.contains("timing") && run["timing"].is_object()) {
      evaluation.timing = run["timing"];
      const auto timing = results::timing_summary(evaluation.timing);
      if (outcome.status == results::SampleStatus::correct && timing && timing->speedup &&
          *timing->speedup > 0)
        evaluation.speedup = timing->speedup;
    }
    if (outcome.sol) {
      evaluation.sol_ms = outcome.sol->sol_ms;
      evaluation.sol_fraction = outcome.sol->sol_fraction;
      evaluation.suspicious_fast = outcome.sol->suspicious_fast;
      evaluation.sol = results::SolInfo{outcome.sol->binding, outcome.sol->profile, ""};
    } else if (!outcome.sol_note.empty()) {
      evaluation.sol = results::SolInfo{"", "", outcome.sol_note};
    }
  } else if (outcome.status == results::SampleStatus::compiled) {
    evaluation.eval = results::EvalInfo{"compiled", std::nullopt, nlohmann::json::array(),
                                        nlohmann::json(), no_gpu_reason, std::nullopt, nlohmann::json(),
                                        nlohmann::json()};
  }
  std::string log = compile.log;
  if (run.is_object() && !run.value("log", "").empty())
    log += (log.empty() ? "" : "\n") + std::string("--- worker ---\n") + run.value("log", "");
  if (!log.empty()) {
    const std::string path =
        "logs/" + record.problem + "/sample_" + std::to_string(record.sample) +
        (record.turn > 0 ? ".turn_" + std::to_string(record.turn) : std::string()) + ".txt";
    results::write_file_atomic(out / path, log, false);
    if (!record.artifacts) record.artifacts = results::Artifacts{};
    record.artifacts->log = path;
  }
  return record;
}

results::Record generation_record(results::Record record) {
  if (!record.evaluation) return record;  // a generation record already (schema 1)
  record.evaluation.reset();
  if (record.status != "api_error" && record.status != "format_error") {
    record.status = "generated";
    record.message.reset();
    if (record.artifacts) record.artifacts->log.clear();
  }
  record.schema_version = results::kGenerationSchema;
  return record;
}

}  // namespace pkb::run
