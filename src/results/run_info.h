// run.json as its readers use it (score, the leaderboard, merge, slurm status): the fields pkb
// interprets, typed and checked once, with the whole document kept for what is only copied on.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pkb::results {

struct RunProblem {  // one entry of run.json's `problems`
  std::string key;       // "001_allreduce"
  std::string category;  // "" when run.json has none (pkb generate writes none)
  int id = 0;            // 0 when run.json has none (written before pkb generate wrote it)
  int world = 0;
  std::string dtype, prompt_sha256;
};

/// {key, id, category, world, dtype, prompt_sha256}; id and category only when known.
nlohmann::json to_json(const RunProblem& problem);
/// run.json's `problems`.
nlohmann::json to_json(const std::vector<RunProblem>& problems);

struct RunShard {
  int index = -1;
  int count = 0;
};

struct RunInfo {
  int schema_version = 0;
  std::string kind;          // generate, run, evaluate or merged
  std::string hardware_key;  // "" where the run never evaluated (generate)
  nlohmann::json fingerprint = nlohmann::json::object();  // the settings that make runs comparable
  std::vector<RunProblem> problems;
  int samples_per_problem = 0;  // fingerprint.samples, else samples_per_problem (schema 1), else 0
  std::optional<RunShard> shard;
  bool finished = false;   // has its end stamp
  bool cancelled = false;  // summary.cancelled
  nlohmann::json doc;      // the whole file

  /// "I/N" for a shard of a run, "" otherwise.
  std::string shard_label() const;
};

/// Checks and types `doc` (read from `where`, e.g. "DIR/run.json"). Throws InputError naming the
/// file and field: a problems list that is not objects with a string key, a non-object shard.
RunInfo run_info_from(nlohmann::json doc, const std::string& where);

/// DIR/run.json through read_run_file, typed.
RunInfo read_run_info(const std::filesystem::path& dir);

/// The same, or nothing where a status display must not stop (no run.json yet, or a bad one).
std::optional<RunInfo> read_run_info_if_any(const std::filesystem::path& dir);

/// A setting's value for messages: its JSON text, or "absent" for null.
std::string setting_text(const nlohmann::json& value);

/// The first setting in which `other` differs from `first`: a fingerprint field (compared by
/// name, an absent field differing from any value), then hardware_key. Values as JSON text, or
/// "absent".
struct SettingDifference {
  std::string field;  // "fingerprint.temperature", "hardware_key"
  std::string first, other;
};
std::optional<SettingDifference> first_difference(const RunInfo& first, const RunInfo& other);

/// The same rule for two fingerprints alone (what `--resume` compares); `field` is the name
/// inside the fingerprint ("max_tokens").
std::optional<SettingDifference> fingerprint_difference(const nlohmann::json& first,
                                                        const nlohmann::json& other);

}  // namespace pkb::results
