// Progress of `pkb run` and `pkb evaluate` on stderr (a ProgressTicker): done/total, counts by
// status, the compile queue and the judge's (the GPUs or the simulated node), rate and ETA.
#pragma once

#include <chrono>
#include <string>

#include "src/cli/progress_ticker.h"
#include "src/run/run_stats.h"

namespace pkb::cli {

class RunProgress {
 public:
  /// `judge`: who runs the samples, as the line names its queue ("the GPU", "the simulated node").
  RunProgress(std::string stage, run::RunStats& stats, std::string judge);
  void stop() { ticker_.stop(); }  // draws the last line

 private:
  std::string line() const;

  std::string stage_;
  std::string judge_;
  run::RunStats& stats_;
  std::chrono::steady_clock::time_point start_;
  ProgressTicker ticker_;  // last: its thread reads the members above
};

}  // namespace pkb::cli
