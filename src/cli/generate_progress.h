// Progress of `pkb generate` on stderr: on a terminal a live line (done/total, failures by kind,
// requests in flight, output tokens, rate, ETA) redrawn twice a second; otherwise a plain log line
// every 10 s. A background thread draws it until stop().
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "src/generate/generator.h"

namespace pkb::cli {

class GenerateProgress {
 public:
  GenerateProgress(generate::GenerateStats& stats, std::function<int()> in_flight);
  ~GenerateProgress();
  void stop();  // draws the last line

 private:
  std::string line() const;
  void loop();

  generate::GenerateStats& stats_;
  std::function<int()> in_flight_;
  bool terminal_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace pkb::cli
