// RunProgress (see run_progress.h).
#include "src/cli/run_progress.h"

namespace pkb::cli {

RunProgress::RunProgress(std::string stage, run::RunStats& stats, std::string judge)
    : stage_(std::move(stage)),
      judge_(std::move(judge)),
      stats_(stats),
      start_(std::chrono::steady_clock::now()),
      ticker_([this] { return line(); }) {}

std::string RunProgress::line() const {
  const int done = stats_.done, resumed = stats_.resumed, total = stats_.total;
  std::string statuses;
  for (const auto& [status, count] : stats_.statuses())
    statuses += (statuses.empty() ? "" : ", ") + status + " " + std::to_string(count);
  std::string text =
      stage_ + ": " + std::to_string(done + resumed) + "/" + std::to_string(total) + " done";
  if (resumed) text += " (" + std::to_string(resumed) + " resumed)";
  const int records = stats_.records;
  if (records != done) text += ", " + std::to_string(records) + " turns";
  if (!statuses.empty()) text += " [" + statuses + "]";
  text += ", " + std::to_string(stats_.compiling.load()) + " to compile, " +
          std::to_string(stats_.on_gpu.load()) + " for " + judge_;
  return text + rate_and_eta(done, total - resumed - done, start_);
}

}  // namespace pkb::cli
