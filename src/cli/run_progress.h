// Progress of `pkb run` and `pkb evaluate` on stderr: on a terminal a live line (done/total,
// counts by status, compiling and GPU queue, rate, ETA) redrawn twice a second; otherwise a
// plain log line every 10 s. A background thread draws it until stop().
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "src/run/run_stats.h"

namespace pkb::cli {

class RunProgress {
 public:
  RunProgress(std::string stage, run::RunStats& stats);
  ~RunProgress();
  void stop();  // draws the last line

 private:
  std::string line() const;
  void loop();

  std::string stage_;
  run::RunStats& stats_;
  bool terminal_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace pkb::cli
