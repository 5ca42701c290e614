// A background thread that redraws a progress line on stderr until stop(): on a terminal twice a
// second, in place; otherwise a plain log line every 10 s (docs/STYLE.md, "Output"). stop() draws the last
// line. `pkb run`, `pkb evaluate` and `pkb generate` each supply only the line.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace pkb::cli {

class ProgressTicker {
 public:
  explicit ProgressTicker(std::function<std::string()> line);
  ~ProgressTicker();
  ProgressTicker(const ProgressTicker&) = delete;
  ProgressTicker& operator=(const ProgressTicker&) = delete;
  void stop();

 private:
  void loop();

  std::function<std::string()> line_;
  bool terminal_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;  // last: it starts once everything above is set
};

/// ", 6.9/s, ETA 12 s": the rate counts only the `done` items finished since `start` (resumed ones
/// came for free, so a resumed run's ETA stays honest); `left` are still to do.
std::string rate_and_eta(int done, int left, std::chrono::steady_clock::time_point start);

}  // namespace pkb::cli
