// The order of the first writes is what makes `pkb evaluate` safe to kill: generate.jsonl is
// written (atomically) only while it does not exist, samples.jsonl is emptied only after it
// exists, and run.json says "evaluate" only after both.
#include "src/run/evaluate_dir.h"

#include <unistd.h>

#include <set>

#include "src/common/error.h"
#include "src/problem/dims.h"
#include "src/results/durable_file.h"
#include "src/results/run_file.h"
#include "src/results/run_info.h"
#include "src/results/run_lock.h"
#include "src/results/samples_file.h"
#include "src/run/sample_record.h"

namespace pkb::run {
namespace fs = std::filesystem;
namespace {

void write_generation_source(const fs::path& dir) {
  std::set<results::TurnId> seen;
  std::string text;
  const fs::path samples = dir / "samples.jsonl";
  for (auto& line : results::read_records(samples, samples.string()).lines) {
    const results::Record& record = line.record;
    if (!seen.emplace(record.problem, record.sample, record.turn).second) continue;
    text += results::record_line(generation_record(std::move(line.record)));
  }
  results::write_file_atomic(dir / "generate.jsonl", text);
}

nlohmann::json evaluation_fingerprint(const nlohmann::json& doc, const EvaluateConfig& config) {
  nlohmann::json fingerprint = doc.value("fingerprint", nlohmann::json::object());
  if (doc.value("kind", "") == "evaluate") return fingerprint;
  const std::string prompt_dims = fingerprint.value("dims", "");
  if (!prompt_dims.empty() && prompt_dims != config.dims) fingerprint["prompt_dims"] = prompt_dims;
  fingerprint["dims"] = config.dims;
  fingerprint["trials"] = config.eval.trials;
  fingerprint["samples"] = doc.value("samples_per_problem", fingerprint.value("samples", 0));
  // Each turn's answer is judged again as it was recorded; a run's conversations are not replayed.
  fingerprint["turns"] = fingerprint.value("turns", 1);
  fingerprint.erase("no_timing");  // as in pkb run: present only for an untimed evaluation
  if (!config.eval.time) fingerprint["no_timing"] = true;
  fingerprint.erase("drawn_shapes");  // as in pkb run: present only when shapes were drawn
  if (config.eval.drawn_shapes > 0) fingerprint["drawn_shapes"] = config.eval.drawn_shapes;
  return fingerprint;
}

void check_same_settings(const nlohmann::json& doc, const EvaluateConfig& config) {
  const auto& fingerprint = doc["fingerprint"];
  const std::pair<std::string, nlohmann::json> asked[] = {
      {"trials", config.eval.trials},
      {"dims", config.dims},
      {"no_timing", config.eval.time ? nlohmann::json() : nlohmann::json(true)}};
  for (const auto& [name, value] : asked)
    if (fingerprint.value(name, nlohmann::json()) != value)
      throw UsageError("pkb evaluate " + config.dir.string() + ": evaluated before with " + name +
                       " = " + fingerprint.value(name, nlohmann::json()).dump() + ", not " +
                       value.dump() + "; pass the same settings to continue it");
}

}  // namespace

nlohmann::json read_run_json(const fs::path& dir) {
  const fs::path path = dir / "run.json";
  if (!fs::is_directory(dir)) throw UsageError(dir.string() + ": no such directory");
  auto doc = results::read_run_file(dir);
  const std::string kind = doc.value("kind", "");
  if (kind != "generate" && kind != "run" && kind != "evaluate")
    throw InputError(path.string() + ": kind: expected generate, run or evaluate, got '" + kind +
                     "'");
  if (!doc.contains("problems") || !doc["problems"].is_array())
    throw InputError(path.string() + ": problems: expected a list");
  return doc;
}

EvaluationProblems evaluation_problems(const fs::path& dir, const problem::ProblemIndex& index,
                                       const std::string& dims) {
  const results::RunInfo run =
      results::run_info_from(read_run_json(dir), (dir / "run.json").string());
  EvaluationProblems problems;
  problems.dims_text = dims;
  if (problems.dims_text.empty()) problems.dims_text = run.fingerprint.value("dims", "bench");
  problems.specs.reserve(run.problems.size());
  for (const auto& entry : run.problems) {
    try {
      problems.specs.push_back(index.load(index.resolve(entry.key)));
    } catch (const Error& error) {
      throw InputError((dir / "run.json").string() + ": problems: " + entry.key + ": " +
                       error.what());
    }
    const auto& spec = problems.specs.back();
    problems.dims.push_back(
        problem::select_dims(spec, problems.dims_text, problem::DimsBase::bench,
                             {entry.world > 0 ? entry.world : spec.world_sizes.back()}));
    results::RunProblem typed = entry;
    typed.id = spec.id;
    typed.category = spec.category;
    problems.entries.push_back(typed);
    problems.max_world = std::max(problems.max_world, entry.world > 0 ? entry.world : 1);
  }
  return problems;
}

RunSummary evaluate_directory(const EvaluateConfig& config, RunStats& stats) {
  const fs::path& dir = config.dir;
  if (::access(dir.c_str(), W_OK) != 0) throw UsageError(dir.string() + ": not writable");
  results::RunLock lock(dir);
  nlohmann::json doc = read_run_json(dir);
  const bool continuing = doc.value("kind", "") == "evaluate";
  if (continuing) check_same_settings(doc, config);
  const fs::path source = dir / "generate.jsonl";
  if (!fs::exists(source)) {
    if (continuing) throw InputError(source.string() + ": missing (run.json says kind evaluate)");
    write_generation_source(dir);
  }
  if (!continuing) results::write_samples_file(dir / "samples.jsonl", "");

  const std::string started = results::utc_now_iso();
  nlohmann::json base = doc;
  if (!continuing) base["evaluated_from"] = doc.value("kind", "");
  base["command"] = config.command;
  base["fingerprint"] = evaluation_fingerprint(doc, config);
  base["problems"] = results::to_json(config.problems);
  doc = run_json(base, "evaluate", config.context, started);
  results::write_run_file(dir, doc);

  const auto samples_path = dir / "samples.jsonl";
  const results::ResumeState resume = results::prepare_resume(samples_path);
  std::vector<results::Record> pending;
  std::set<results::TurnId> queued;
  for (auto& line : results::read_records(source, source.string()).lines) {
    results::TurnId id{line.record.problem, line.record.sample, line.record.turn};
    if (resume.recorded.count(id) || !queued.insert(id).second) continue;
    pending.push_back(std::move(line.record));
  }
  const int resumed = static_cast<int>(resume.recorded.size());
  stats.total = static_cast<int>(pending.size()) + resumed;
  stats.resumed = resumed;
  {
    results::SamplesLog log(samples_path);
    Evaluator evaluator(config.eval, log, stats);
    for (auto& record : pending) {
      if (config.eval.cancel && config.eval.cancel->load()) break;
      evaluator.submit(std::move(record));
    }
    evaluator.finish();
  }
  return finish_run_file(dir, doc, resumed, config.eval.cancel && config.eval.cancel->load());
}

}  // namespace pkb::run
