// Progress of long work on stderr: on a terminal one updating line (done/total, failures, rate,
// ETA); otherwise a plain log line at most every 10 s, and one at the end.
#pragma once

#include <chrono>
#include <string>

namespace pkb::cli {

/// How often progress goes to a log when stderr is not a terminal (docs/STYLE.md, "Output").
constexpr std::chrono::seconds kProgressLogInterval{10};

class Progress {
 public:
  Progress(std::string stage, int total);
  void step(bool failed);  // one item done
  void finish();

 private:
  void print(bool final_line);

  std::string stage_;
  int total_;
  int done_ = 0;
  int failures_ = 0;
  bool terminal_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_log_;
};

}  // namespace pkb::cli
