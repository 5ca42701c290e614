// One writer per results directory (docs/RESULTS.md): an exclusive flock on DIR/.lock, released
// when the holder exits, however it exits.
#pragma once

#include <filesystem>

namespace pkb::results {

class RunLock {
 public:
  /// Throws pkb::UsageError naming the directory when another process holds it.
  explicit RunLock(const std::filesystem::path& dir);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace pkb::results
