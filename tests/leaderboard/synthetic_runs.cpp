// Writing synthetic results directories (synthetic_runs.h).
#include "tests/leaderboard/synthetic_runs.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>

#include "tests/score/fixture.h"

namespace pkb::test {
namespace fs = std::filesystem;
namespace {

// The real categories and how many problems each has (87 in all), in problem order.
const std::vector<std::pair<const char*, int>>& categories() {
  static const std::vector<std::pair<const char*, int>> list = {
      {"collective", 15},   {"tensor-parallel", 11}, {"sequence-parallel", 14}, {"expert-parallel", 10},
      {"data-parallel", 2}, {"fsdp-zero", 4},        {"optimizer", 5},          {"loss", 9},
      {"quantization", 5},  {"application", 12}};
  return list;
}

std::string category_of(int problem) {
  int last = 0;
  for (const auto& [name, count] : categories()) {
    last += count;
    if (problem <= last) return name;
  }
  return "application";
}

// A status for (model, problem, sample): `skill` percent correct, the rest spread over failures.
std::string status_of(const SyntheticRun& run, int problem, int sample, unsigned& roll) {
  roll = static_cast<unsigned>(std::hash<std::string>()(run.model + "/" + std::to_string(problem) + "/" +
                                                        std::to_string(sample)) % 1000);
  if (static_cast<int>(roll % 100) < run.skill) return "correct";
  static const char* const kFailures[] = {"incorrect", "incorrect", "runtime_error", "timeout",
                                          "plan_error", "compile_error", "format_error"};
  return kFailures[(roll / 100) % 7];
}

}  // namespace

std::string synthetic_key(int problem) {
  char key[32];
  std::snprintf(key, sizeof key, "%03d_problem", problem);
  return key;
}

void write_synthetic_run(const fs::path& root, const SyntheticRun& run) {
  const fs::path dir = root / run.dir;
  fs::create_directories(dir);
  const bool simulated = run.hardware == "simulated node";
  nlohmann::json info = nlohmann::json::parse(read_text(fixture_dir("basic") / "run.json"));
  info["model"]["name"] = info["model"]["model"] = run.model;
  info["fingerprint"]["model"] = run.model;
  info["fingerprint"]["samples"] = run.samples;
  info["fingerprint"]["dims"] = run.dims;
  if (simulated) info["fingerprint"]["judge"] = "sim";
  info["hardware_key"] = run.hardware;
  info["started"] = run.started;
  info["problems"] = nlohmann::json::array();
  for (int problem = run.first; problem <= run.last; ++problem)
    info["problems"].push_back({{"key", synthetic_key(problem)}, {"id", problem},
                                {"category", category_of(problem)}, {"world", 8}, {"dtype", "bf16"}});
  write_text(dir / "run.json", info.dump(2));

  const std::string fixture_records = read_text(fixture_dir("basic") / "samples.jsonl");
  const nlohmann::json base = nlohmann::json::parse(fixture_records.substr(0, fixture_records.find('\n')));
  std::string lines;
  for (int problem = run.first; problem <= std::min(run.last, run.sampled_last); ++problem)
    for (int sample = 0; sample < run.samples; ++sample) {
      nlohmann::json record = base;
      unsigned roll = 0;
      const std::string status = status_of(run, problem, sample, roll);
      record["problem"] = synthetic_key(problem);
      record["problem_id"] = problem;
      record["sample"] = sample;
      record["model"] = run.model;
      record["category"] = category_of(problem);
      record["status"] = status;
      record["message"] = status;
      const double speedup = 0.5 + static_cast<double>(roll % 250) / 100.0;
      if (status != "correct" || simulated) {
        record["timing"] = nullptr;
        record["speedup"] = nullptr;
      } else {
        record["timing"]["speedup"] = speedup;
        record["timing"]["round_speedups"] = {speedup, speedup, speedup};
        record["speedup"] = speedup;
        if (run.sol_fraction > 0) record["sol_fraction"] = run.sol_fraction;
      }
      if (simulated && (status == "correct" || status == "incorrect"))
        record["eval"] = {{"stage", "done"}, {"trials", nlohmann::json::array()}, {"judged_by", "sim"}};
      lines += record.dump() + "\n";
    }
  write_text(dir / "samples.jsonl", lines);
}

fs::path partial_runs_tree(int samples) {
  const fs::path root = copy_fixture("tree").parent_path() / "partial";
  const std::string gpu = "8x NVIDIA H200";
  write_synthetic_run(root, {"full", "openai:gpt-5.1-codex-max-2026-11-20-preview", gpu, 1, 87, samples, 30});
  write_synthetic_run(root, {"first-40", "anthropic:claude-sonnet-4-5", gpu, 1, 40, samples, 95});
  write_synthetic_run(root, {"first-60", "google:gemini-3-pro", gpu, 1, 60, samples, 90});
  write_synthetic_run(root, {"full-large", "openai:gpt-5.1-codex-max-2026-11-20-preview", gpu, 1, 87, samples, 20,
                             "2026-11-24T08:00:00Z", "large"});
  write_synthetic_run(root, {"sim-cut", "replay:examples/replay", "simulated node", 1, 87, samples, 60,
                             "2026-11-21T09:00:00Z", "test", 5});
  return root;
}

}  // namespace pkb::test
