// ProgressTicker and rate_and_eta (see progress_ticker.h).
#include "src/cli/progress_ticker.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>

#include "src/cli/progress.h"

namespace pkb::cli {
namespace {
constexpr std::chrono::milliseconds kTerminalInterval{500};
}  // namespace

ProgressTicker::ProgressTicker(std::function<std::string()> line)
    : line_(std::move(line)), terminal_(isatty(STDERR_FILENO) != 0), thread_([this] { loop(); }) {}

ProgressTicker::~ProgressTicker() { stop(); }

void ProgressTicker::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (terminal_)
    std::fprintf(stderr, "\r\033[K%s\n", line_().c_str());
  else
    spdlog::info("{}", line_());
}

void ProgressTicker::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, terminal_ ? kTerminalInterval : std::chrono::milliseconds(kProgressLogInterval),
                         [this] { return stopping_; })) {
    if (terminal_) {
      std::fprintf(stderr, "\r\033[K%s", line_().c_str());
      std::fflush(stderr);
    } else {
      spdlog::info("{}", line_());
    }
  }
}

std::string rate_and_eta(int done, int left, std::chrono::steady_clock::time_point start) {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double rate = elapsed > 0 ? done / elapsed : 0;
  char text[64];
  std::snprintf(text, sizeof text, ", %.1f/s, ETA %s", rate,
                rate > 0 ? (std::to_string(static_cast<int>(left / rate + 0.5)) + " s").c_str() : "-");
  return text;
}

}  // namespace pkb::cli
