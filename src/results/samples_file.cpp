// Resume reads the records back (a torn last line is dropped: results/jsonl_file.h) and rewrites
// the file when it drops anything, so the next append starts on a line of its own.
#include "src/results/samples_file.h"

#include "src/common/error.h"
#include "src/results/durable_file.h"
#include "src/results/jsonl_file.h"

namespace pkb::results {

ResumeState prepare_resume(const std::filesystem::path& path) {
  ResumeState state;
  const JsonlFile file = read_jsonl(path, path.string());
  if (file.torn_line) ++state.dropped_torn;
  std::string kept;
  std::map<SampleId, std::map<int, nlohmann::json>> turns;  // kept records by sample and turn
  for (const auto& line : file.lines) {
    const nlohmann::json& record = line.record;
    if (!record.contains("problem") || !record.contains("sample"))
      throw InputError(path.string() + ":" + std::to_string(line.number) + ": not a sample record");
    if (record.value("status", "") == "api_error") {
      ++state.dropped_failed;
      continue;
    }
    const SampleId id{record["problem"].get<std::string>(), record["sample"].get<int>()};
    if (!turns[id].emplace(record.value("turn", 0), record).second)
      continue;  // never keep a (sample, turn) twice
    state.recorded.emplace(id.first, id.second, record.value("turn", 0));
    kept += line.text + "\n";
  }
  for (auto& [id, by_turn] : turns) {
    const nlohmann::json& last = by_turn.rbegin()->second;
    const auto conversation = last.find("conversation");
    const bool goes_on = conversation != last.end() && conversation->is_object() &&
                         conversation->contains("end") && (*conversation)["end"].is_null();
    if (!goes_on) {
      state.finished.insert(id);
      continue;
    }
    auto& records = state.unfinished[id];
    for (auto& [turn, record] : by_turn) records.push_back(std::move(record));
  }
  if (state.dropped_torn || state.dropped_failed || file.missing_final_newline)
    write_samples_file(path, kept);
  return state;
}

void write_samples_file(const std::filesystem::path& path, const std::string& lines) {
  write_file_atomic(path, lines);
}

void SamplesLog::append(const nlohmann::json& record) {
  std::lock_guard<std::mutex> lock(mutex_);
  append_line_durable(path_, record.dump() + "\n");
}

}  // namespace pkb::results
