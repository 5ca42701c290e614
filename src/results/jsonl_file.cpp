// read_jsonl (see jsonl_file.h).
#include "src/results/jsonl_file.h"

#include "src/common/error.h"
#include "src/common/file_bytes.h"

namespace pkb::results {

JsonlFile read_jsonl(const std::filesystem::path& path, const std::string& name) {
  JsonlFile file;
  const auto bytes = read_file(path);
  if (!bytes) {
    std::error_code error;
    if (std::filesystem::exists(path, error)) throw InputError(name + ": cannot read");
    return file;
  }
  const std::string& text = *bytes;
  std::size_t start = 0;
  for (int number = 1; start < text.size(); ++number) {
    const std::size_t end = text.find('\n', start);
    const bool last_without_newline = end == std::string::npos;
    std::string line = text.substr(start, last_without_newline ? std::string::npos : end - start);
    start = last_without_newline ? text.size() : end + 1;
    file.missing_final_newline = last_without_newline;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json record = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (record.is_discarded() || !record.is_object()) {
      if (last_without_newline) {  // the writer died mid-line
        file.torn_line = number;
        break;
      }
      throw InputError(name + ":" + std::to_string(number) +
                       ": not valid JSON (a corrupt record; remove or repair the line)");
    }
    file.lines.push_back({number, std::move(line), std::move(record)});
  }
  return file;
}

std::string jsonl_text(const std::vector<JsonlLine>& lines) {
  std::string text;
  for (const auto& line : lines) text += line.text + "\n";
  return text;
}

}  // namespace pkb::results
