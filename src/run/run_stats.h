// Counters of a run or an evaluation, for progress lines and run.json's summary; updated by the
// pipeline's threads.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <string>

namespace pkb::run {

struct RunStats {
  std::atomic<int> total{0};
  std::atomic<int> resumed{0};    // recorded by an earlier process
  std::atomic<int> done{0};       // finished by this one (every turn of the sample recorded)
  std::atomic<int> records{0};    // records written by this one (one per turn)
  std::atomic<int> compiling{0};  // in the compile stage now
  std::atomic<int> on_gpu{0};     // waiting for or on the GPU now
  mutable std::mutex mutex;
  std::map<std::string, int> by_status;  // this process's records only

  /// One record written; `sample_over` when it was the sample's last turn.
  void count(const std::string& status, bool sample_over = true) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      ++by_status[status];
    }
    ++records;
    if (sample_over) ++done;
  }
  std::map<std::string, int> statuses() const {
    std::lock_guard<std::mutex> lock(mutex);
    return by_status;
  }
};

}  // namespace pkb::run
