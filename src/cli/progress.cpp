// Progress: the rate is items per second since the start; ETA = remaining / rate.
#include "src/cli/progress.h"

#include <unistd.h>

#include <cstdio>

#include <spdlog/spdlog.h>

namespace pkb::cli {

Progress::Progress(std::string stage, int total)
    : stage_(std::move(stage)),
      total_(total),
      terminal_(isatty(STDERR_FILENO) != 0),
      start_(std::chrono::steady_clock::now()),
      last_log_(start_) {}

void Progress::step(bool failed) {
  ++done_;
  failures_ += failed ? 1 : 0;
  const auto now = std::chrono::steady_clock::now();
  if (terminal_) {
    print(false);
  } else if (now - last_log_ >= kProgressLogInterval) {
    last_log_ = now;
    print(false);
  }
}

void Progress::finish() { print(true); }

void Progress::print(bool final_line) {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? done_ / elapsed : 0;
  const double eta = rate > 0 ? (total_ - done_) / rate : 0;
  char line[160];
  std::snprintf(line, sizeof line, "%s: %d/%d done, %d failed, %.1f/s, ETA %.0f s", stage_.c_str(), done_,
                total_, failures_, rate, eta);
  if (terminal_) {
    std::fprintf(stderr, "\r\033[K%s%s", line, final_line ? "\n" : "");
    std::fflush(stderr);
  } else {
    spdlog::info("{}", line);
  }
}

}  // namespace pkb::cli
