// flock rather than a pid file: the kernel drops it when the process dies, so a killed run never
// leaves a stale lock behind.
#include "src/results/run_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "src/common/error.h"

namespace pkb::results {

RunLock::RunLock(const std::filesystem::path& dir) {
  const std::filesystem::path path = dir / ".lock";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw UsageError("--out " + dir.string() + ": cannot create " + path.string() + ": " +
                     std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    fd_ = -1;
    throw UsageError("--out " + dir.string() + ": another pkb process is writing there");
  }
}

RunLock::~RunLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace pkb::results
