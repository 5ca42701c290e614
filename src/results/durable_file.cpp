// POSIX I/O rather than streams: fsync needs the descriptor, and O_APPEND makes each line one
// write.
#include "src/results/durable_file.h"

#include <chrono>
#include <ctime>

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "src/common/error.h"

namespace pkb::results {
namespace {

void write_all(int fd, const std::string& content, const std::filesystem::path& path) {
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t count = ::write(fd, content.data() + written, content.size() - written);
    if (count < 0) {
      if (errno == EINTR) continue;
      const std::string reason = std::strerror(errno);
      ::close(fd);
      throw Error(path.string() + ": cannot write: " + reason);
    }
    written += static_cast<std::size_t>(count);
  }
}

}  // namespace

void write_file_atomic(const std::filesystem::path& path, const std::string& content, bool sync) {
  static std::atomic<unsigned> counter{0};
  std::filesystem::create_directories(path.parent_path());
  const std::filesystem::path temp =
      path.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(temp.string() + ": cannot create: " + std::strerror(errno));
  write_all(fd, content, temp);
  if (sync) ::fsync(fd);
  ::close(fd);
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temp.c_str());
    throw Error(path.string() + ": cannot rename into place: " + reason);
  }
}

void append_line_durable(const std::filesystem::path& path, const std::string& line) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(path.string() + ": cannot open for appending: " + std::strerror(errno));
  write_all(fd, line, path);
  ::fsync(fd);
  ::close(fd);
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot read");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string utc_now_iso() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace pkb::results
