// GenerateProgress (see generate_progress.h).
#include "src/cli/generate_progress.h"

#include <cstdio>
#include <mutex>

namespace pkb::cli {

GenerateProgress::GenerateProgress(generate::GenerateStats& stats, std::function<int()> in_flight)
    : stats_(stats),
      in_flight_(std::move(in_flight)),
      start_(std::chrono::steady_clock::now()),
      ticker_([this] { return line(); }) {}

std::string GenerateProgress::line() const {
  const int done = stats_.done, resumed = stats_.resumed, total = stats_.total;
  std::string failures;
  {
    std::lock_guard<std::mutex> lock(stats_.mutex);
    for (const auto& [kind, count] : stats_.failures)
      failures += (failures.empty() ? "" : ", ") + kind + " " + std::to_string(count);
  }
  char text[192];
  std::snprintf(text, sizeof text, "generate: %d/%d done%s, %d in flight, %lld output tokens",
                done + resumed, total,
                resumed ? (" (" + std::to_string(resumed) + " resumed)").c_str() : "", in_flight_(),
                static_cast<long long>(stats_.output_tokens));
  return std::string(text) + rate_and_eta(done, total - resumed - done, start_) +
         (failures.empty() ? "" : "; failures: " + failures);
}

}  // namespace pkb::cli
