// Resume reads the records back (a torn last line is dropped: results/jsonl_file.h) and rewrites
// the file when it drops anything, so the next append starts on a line of its own.
#include "src/results/samples_file.h"

#include "src/common/error.h"
#include "src/results/durable_file.h"
#include "src/results/jsonl_file.h"

namespace pkb::results {

RecordsFile read_records(const std::filesystem::path& path, const std::string& name) {
  JsonlFile file = read_jsonl(path, name);
  RecordsFile records;
  records.torn_line = file.torn_line;
  records.missing_final_newline = file.missing_final_newline;
  for (auto& line : file.lines)
    records.lines.push_back(
        {line.number, std::move(line.text),
         record_from_json(line.record, name + ":" + std::to_string(line.number))});
  return records;
}

ResumeState prepare_resume(const std::filesystem::path& path) {
  ResumeState state;
  RecordsFile file = read_records(path, path.string());
  if (file.torn_line) ++state.dropped_torn;
  std::string kept;
  std::map<SampleId, std::map<int, Record>> turns;  // kept records by sample and turn
  for (auto& line : file.lines) {
    Record& record = line.record;
    if (record.status == "api_error") {
      ++state.dropped_failed;
      continue;
    }
    const SampleId id{record.problem, record.sample};
    const int turn = record.turn;
    if (!turns[id].emplace(turn, std::move(record)).second)
      continue;  // never keep a (sample, turn) twice
    state.recorded.emplace(id.first, id.second, turn);
    kept += line.text + "\n";
  }
  for (auto& [id, by_turn] : turns) {
    const Record& last = by_turn.rbegin()->second;
    const bool goes_on = last.conversation && !last.conversation->end;
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

std::string record_line(const Record& record) { return to_json(record).dump() + "\n"; }

void SamplesLog::append(const Record& record) {
  const std::string line = record_line(record);
  std::lock_guard<std::mutex> lock(mutex_);
  append_line_durable(path_, line);
}

}  // namespace pkb::results
