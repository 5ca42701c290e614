// The rate counts only samples finished in this process (resumed ones came for free), so the ETA
// of a resumed run is honest.
#include "src/cli/generate_progress.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>

namespace pkb::cli {
namespace {
constexpr std::chrono::milliseconds kTerminalInterval{500};
constexpr std::chrono::seconds kLogInterval{10};  // STYLE.md §6
}  // namespace

GenerateProgress::GenerateProgress(generate::GenerateStats& stats, std::function<int()> in_flight)
    : stats_(stats),
      in_flight_(std::move(in_flight)),
      terminal_(isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()),
      thread_([this] { loop(); }) {}

GenerateProgress::~GenerateProgress() { stop(); }

void GenerateProgress::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (terminal_)
    std::fprintf(stderr, "\r\033[K%s\n", line().c_str());
  else
    spdlog::info("{}", line());
}

void GenerateProgress::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(
      lock,
      terminal_ ? std::chrono::duration_cast<std::chrono::milliseconds>(kTerminalInterval)
                : std::chrono::duration_cast<std::chrono::milliseconds>(kLogInterval),
      [this] { return stopping_; })) {
    if (terminal_) {
      std::fprintf(stderr, "\r\033[K%s", line().c_str());
      std::fflush(stderr);
    } else {
      spdlog::info("{}", line());
    }
  }
}

std::string GenerateProgress::line() const {
  const int done = stats_.done, resumed = stats_.resumed, total = stats_.total;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? done / elapsed : 0;
  const int left = total - resumed - done;
  std::string failures;
  {
    std::lock_guard<std::mutex> lock(stats_.mutex);
    for (const auto& [kind, count] : stats_.failures)
      failures += (failures.empty() ? "" : ", ") + kind + " " + std::to_string(count);
  }
  char text[256];
  std::snprintf(
      text, sizeof text, "generate: %d/%d done%s, %d in flight, %lld output tokens, %.1f/s, ETA %s",
      done + resumed, total, resumed ? (" (" + std::to_string(resumed) + " resumed)").c_str() : "",
      in_flight_(), static_cast<long long>(stats_.output_tokens), rate,
      rate > 0 ? (std::to_string(static_cast<int>(left / rate + 0.5)) + " s").c_str() : "-");
  return std::string(text) + (failures.empty() ? "" : "; failures: " + failures);
}

}  // namespace pkb::cli
