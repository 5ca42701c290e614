#include "src/results/records_summary.h"

#include "src/results/samples_file.h"

namespace pkb::results {

int RecordsSummary::count(const std::string& status) const {
  const auto found = by_status.find(status);
  return found == by_status.end() ? 0 : found->second;
}

std::string RecordsSummary::status_text() const {
  std::string text;
  for (const auto& [status, count] : by_status)
    text += (text.empty() ? "" : ", ") + status + " " + std::to_string(count);
  return text.empty() ? "none" : text;
}

RecordsSummary summarize_records(const std::filesystem::path& samples) {
  RecordsSummary summary;
  std::set<std::pair<std::string, int>> seen;
  for (const auto& line : read_records(samples, samples.string()).lines) {
    const Record& record = line.record;
    ++summary.total;
    seen.emplace(record.problem, record.sample);
    ++summary.by_status[record.status];
    if (record.usage) summary.input_tokens += record.usage->input_tokens.value_or(0);
    summary.output_tokens += record.output_tokens().value_or(0);
  }
  summary.samples = static_cast<int>(seen.size());
  return summary;
}

nlohmann::json to_json(const RecordsSummary& summary) {
  return {{"total", summary.total},
          {"samples", summary.samples},
          {"by_status", summary.by_status},
          {"input_tokens", summary.input_tokens},
          {"output_tokens", summary.output_tokens}};
}

}  // namespace pkb::results
