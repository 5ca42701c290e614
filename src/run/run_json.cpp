// run.json fields shared by `pkb run` and `pkb evaluate`.
#include "src/run/run_json.h"

#include "src/results/durable_file.h"
#include "src/results/run_file.h"
#include "src/results/schema.h"

namespace pkb::run {

nlohmann::json run_json(nlohmann::json base, const std::string& kind, const RunContext& context,
                        const std::string& started) {
  base["schema_version"] = results::kEvaluatedSchema;
  base["kind"] = kind;
  base["pkb_version"] = PKB_VERSION;
  base["git_commit"] =
      std::string(PKB_GIT_COMMIT).empty() ? nlohmann::json() : nlohmann::json(PKB_GIT_COMMIT);
  base["started"] = started;
  base.erase("finished");
  base.erase("summary");
  base["environment"] = context.environment;
  base["hardware_key"] = context.hardware_key;
  base["problem_set"] = context.problem_set;
  return base;
}

RunSummary finish_run_file(const std::filesystem::path& dir, nlohmann::json& doc, int resumed,
                           bool cancelled) {
  RunSummary summary{results::summarize_records(dir / "samples.jsonl"), resumed, cancelled};
  nlohmann::json written = results::to_json(summary.records);
  written["resumed"] = resumed;
  written["cancelled"] = cancelled;
  doc["finished"] = results::utc_now_iso();
  doc["summary"] = written;
  results::write_run_file(dir, doc);
  return summary;
}

}  // namespace pkb::run
