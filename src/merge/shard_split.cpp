// The records come from DIR/generate.jsonl when DIR was evaluated before (its generation source),
// else from samples.jsonl; evaluation fields in them are dropped by pkb evaluate itself.
#include "src/merge/shard_split.h"

#include <sstream>

#include "src/common/error.h"
#include "src/results/durable_file.h"
#include "src/results/run_file.h"
#include "src/results/samples_file.h"

namespace pkb::merge {
namespace fs = std::filesystem;
namespace {

// An artifact path inside the results directory ("responses/ab/K.json", "solutions/P/sample_0/..").
void copy_artifact(const fs::path& dir, const fs::path& out, const std::string& relative) {
  const fs::path path = fs::path(relative).lexically_normal();
  if (relative.empty() || path.is_absolute() || *path.begin() == "..") return;
  if (!fs::exists(dir / path) || fs::exists(out / path)) return;
  fs::create_directories((out / path).parent_path());
  fs::copy_file(dir / path, out / path);
}

}  // namespace

void split_shard(const fs::path& dir, const fs::path& out, shard::Shard shard) {
  const std::string flag = "--out " + out.string();
  if (fs::exists(out / "run.json")) {
    const nlohmann::json existing = results::read_run_file(out);
    if (existing.value("shard", nlohmann::json()) != shard::shard_json(shard))
      throw UsageError(flag + ": holds " +
                       (existing.contains("shard") ? "shard " + existing["shard"].dump() : std::string("a run")) +
                       ", not shard " + shard::shard_text(shard) + "; choose another directory");
    return;  // this shard, split before: the evaluation continues there
  }
  if (fs::exists(out) && !fs::is_empty(out)) throw UsageError(flag + ": not empty and holds no run.json");
  nlohmann::json doc = results::read_run_file(dir);
  std::vector<std::string> problems;
  for (const auto& problem : doc.value("problems", nlohmann::json::array())) problems.push_back(problem.value("key", ""));
  const auto fingerprint = doc.value("fingerprint", nlohmann::json::object());
  const int samples = fingerprint.value("samples", doc.value("samples_per_problem", 0));
  const shard::ShardFilter filter(problems, samples, shard);

  const fs::path source = fs::exists(dir / "generate.jsonl") ? dir / "generate.jsonl" : dir / "samples.jsonl";
  std::string kept;
  fs::create_directories(out);
  for (const auto& line : results::read_records(source, source.string()).lines) {  // a torn last line is left out
    const results::Record& record = line.record;
    if (!filter.owns(record.problem, record.sample)) continue;
    kept += line.text + "\n";
    if (!record.artifacts) continue;
    const auto& artifacts = *record.artifacts;
    for (const std::string* path : {&artifacts.response, &artifacts.answer, &artifacts.cuda, &artifacts.plan, &artifacts.log})
      if (!path->empty()) copy_artifact(dir, out, *path);
  }
  results::write_samples_file(out / "samples.jsonl", kept);
  if (doc.value("kind", "") == "evaluate") doc["kind"] = doc.value("evaluated_from", "generate");
  doc["shard"] = shard::shard_json(shard);
  doc["split_from"] = dir.string();
  results::write_run_file(out, doc);
}

}  // namespace pkb::merge
