// run.json, the file that says what a results directory ran (docs/RESULTS.md): one reader and one
// writer for every stage (generate, run, evaluate, merge, shard splits, slurm status, score).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

namespace pkb::results {

/// DIR/run.json, parsed and checked: a JSON object whose schema_version this pkb reads. Throws
/// InputError naming the file: "DIR/run.json: no such file (not a results directory)", "...: not
/// a JSON object (corrupt or cut short)", "...: schema_version 3 is newer than ...".
nlohmann::json read_run_file(const std::filesystem::path& dir);

/// Writes DIR/run.json whole and atomically (durable_file), two-space indented, newline-ended.
void write_run_file(const std::filesystem::path& dir, const nlohmann::json& doc);

}  // namespace pkb::results
