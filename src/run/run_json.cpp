// run.json fields shared by `pkb run` and `pkb evaluate`.
#include "src/run/run_json.h"

#include <fstream>
#include <set>

#include "src/generate/sample_generator.h"
#include "src/run/sample_record.h"
#include "src/results/jsonl_file.h"
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

nlohmann::json summary_json(const std::filesystem::path& samples_path) {
  int total = 0;
  long long input_tokens = 0, output_tokens = 0;
  std::set<std::pair<std::string, int>> samples;
  nlohmann::json by_status = nlohmann::json::object();
  for (const auto& line : results::read_jsonl(samples_path, samples_path.string()).lines) {
    const nlohmann::json& record = line.record;
    ++total;
    samples.emplace(record.value("problem", ""), record.value("sample", 0));
    const std::string status = record.value("status", "unknown");
    by_status[status] = by_status.value(status, 0) + 1;
    if (record.contains("usage") && record["usage"].is_object()) {
      const auto& usage = record["usage"];
      if (usage.contains("input_tokens") && usage["input_tokens"].is_number())
        input_tokens += usage["input_tokens"].get<long long>();
    }
    output_tokens += generate::output_tokens_of(record).value_or(0);
  }
  return {{"total", total},
          {"samples", samples.size()},
          {"by_status", by_status},
          {"input_tokens", input_tokens},
          {"output_tokens", output_tokens}};
}

}  // namespace pkb::run
