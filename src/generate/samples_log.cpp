// Resume reads line by line: a line that does not parse can only be the last one (each append is a
// single write), so it is a torn write and is dropped.
#include "src/generate/samples_log.h"

#include <sstream>

#include "src/common/error.h"
#include "src/generate/durable_file.h"

namespace pkb::generate {

ResumeState prepare_resume(const std::filesystem::path& path) {
  ResumeState state;
  if (!std::filesystem::exists(path)) return state;
  std::stringstream text(read_file(path));
  std::string line, kept;
  int line_number = 0;
  std::map<SampleId, std::map<int, nlohmann::json>> turns;  // kept records by sample and turn
  while (std::getline(text, line)) {
    ++line_number;
    if (line.empty()) continue;
    const auto record = nlohmann::json::parse(line, nullptr, false);
    if (record.is_discarded() || !record.is_object() || !record.contains("problem") ||
        !record.contains("sample")) {
      if (text.peek() != std::char_traits<char>::eof())
        throw InputError(path.string() + ":" + std::to_string(line_number) +
                         ": not a sample record");
      ++state.dropped_torn;
      continue;
    }
    if (record.value("status", "") == "api_error") {
      ++state.dropped_failed;
      continue;
    }
    const SampleId id{record["problem"].get<std::string>(), record["sample"].get<int>()};
    if (!turns[id].emplace(record.value("turn", 0), record).second)
      continue;  // never keep a (sample, turn) twice
    state.recorded.emplace(id.first, id.second, record.value("turn", 0));
    kept += line + "\n";
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
  if (state.dropped_torn || state.dropped_failed) write_file_atomic(path, kept);
  return state;
}

void SamplesLog::append(const nlohmann::json& record) {
  std::lock_guard<std::mutex> lock(mutex_);
  append_line_durable(path_, record.dump() + "\n");
}

}  // namespace pkb::generate
