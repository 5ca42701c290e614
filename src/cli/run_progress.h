// Progress of `pkb run` and `pkb evaluate` on stderr (a ProgressTicker): done/total, counts by
// status, the compile and GPU queues, rate and ETA.
#pragma once

#include <chrono>
#include <string>

#include "src/cli/progress_ticker.h"
#include "src/run/run_stats.h"

namespace pkb::cli {

class RunProgress {
 public:
  RunProgress(std::string stage, run::RunStats& stats);
  void stop() { ticker_.stop(); }  // draws the last line

 private:
  std::string line() const;

  std::string stage_;
  run::RunStats& stats_;
  std::chrono::steady_clock::time_point start_;
  ProgressTicker ticker_;  // last: its thread reads the members above
};

}  // namespace pkb::cli
