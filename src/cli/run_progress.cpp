// The rate counts only samples finished in this process, so the ETA of a resumed run is honest.
#include "src/cli/run_progress.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>

namespace pkb::cli {
namespace {
constexpr std::chrono::milliseconds kTerminalInterval{500};
constexpr std::chrono::milliseconds kLogInterval{10000};  // STYLE.md §6
}  // namespace

RunProgress::RunProgress(std::string stage, run::RunStats& stats)
    : stage_(std::move(stage)),
      stats_(stats),
      terminal_(isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()),
      thread_([this] { loop(); }) {}

RunProgress::~RunProgress() { stop(); }

void RunProgress::stop() {
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

void RunProgress::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, terminal_ ? kTerminalInterval : kLogInterval,
                         [this] { return stopping_; })) {
    if (terminal_) {
      std::fprintf(stderr, "\r\033[K%s", line().c_str());
      std::fflush(stderr);
    } else {
      spdlog::info("{}", line());
    }
  }
}

std::string RunProgress::line() const {
  const int done = stats_.done, resumed = stats_.resumed, total = stats_.total;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? done / elapsed : 0;
  const int left = total - resumed - done;
  std::string statuses;
  for (const auto& [status, count] : stats_.statuses())
    statuses += (statuses.empty() ? "" : ", ") + status + " " + std::to_string(count);
  std::string text =
      stage_ + ": " + std::to_string(done + resumed) + "/" + std::to_string(total) + " done";
  if (resumed) text += " (" + std::to_string(resumed) + " resumed)";
  if (!statuses.empty()) text += " [" + statuses + "]";
  text += ", " + std::to_string(stats_.compiling.load()) + " to compile, " +
          std::to_string(stats_.on_gpu.load()) + " for the GPU";
  char tail[64];
  std::snprintf(
      tail, sizeof tail, ", %.1f/s, ETA %s", rate,
      rate > 0 ? (std::to_string(static_cast<int>(left / rate + 0.5)) + " s").c_str() : "-");
  return text + tail;
}

}  // namespace pkb::cli
