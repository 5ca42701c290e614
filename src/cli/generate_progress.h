// Progress of `pkb generate` on stderr (a ProgressTicker): done/total, failures by kind, requests
// in flight, output tokens, rate and ETA.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "src/cli/progress_ticker.h"
#include "src/generate/generator.h"

namespace pkb::cli {

class GenerateProgress {
 public:
  GenerateProgress(generate::GenerateStats& stats, std::function<int()> in_flight);
  void stop() { ticker_.stop(); }  // draws the last line

 private:
  std::string line() const;

  generate::GenerateStats& stats_;
  std::function<int()> in_flight_;
  std::chrono::steady_clock::time_point start_;
  ProgressTicker ticker_;  // last: its thread reads the members above
};

}  // namespace pkb::cli
