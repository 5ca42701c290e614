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
    if (!state.finished.insert(id).second) continue;  // never keep a sample twice
    kept += line + "\n";
  }
  if (state.dropped_torn || state.dropped_failed) write_file_atomic(path, kept);
  return state;
}

void SamplesLog::append(const nlohmann::json& record) {
  std::lock_guard<std::mutex> lock(mutex_);
  append_line_durable(path_, record.dump() + "\n");
}

}  // namespace pkb::generate
