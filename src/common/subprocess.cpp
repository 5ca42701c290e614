#include "src/common/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "src/common/error.h"

extern char** environ;

namespace pkb {
namespace {

struct Pipe {
  int fd[2] = {-1, -1};
  Pipe() {
    if (pipe2(fd, O_CLOEXEC) != 0) throw Error(std::string("pipe: ") + std::strerror(errno));
  }
  ~Pipe() {
    for (int& f : fd)
      if (f >= 0) close(f);
  }
  void close_end(int end) {
    if (fd[end] >= 0) close(fd[end]);
    fd[end] = -1;
  }
};

bool is_executable(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return is_executable(name) ? name : "";
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (is_executable(candidate)) return candidate;
  }
  return "";
}

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& input, double timeout_s) {
  if (argv.empty()) throw Error("run_process: empty command");
  const std::string program = find_program(argv[0]);
  if (program.empty()) throw Error(argv[0] + ": program not found");
  Pipe in, out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.fd[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw Error(argv[0] + ": cannot start: " + std::strerror(rc));
  in.close_end(0);
  out.close_end(1);
  err.close_end(1);

  // Feed stdin and drain both outputs together, so a child filling one pipe never blocks.
  ProcessResult result;
  std::size_t written = 0;
  if (input.empty()) in.close_end(1);
  else fcntl(in.fd[1], F_SETFL, O_NONBLOCK);
  const auto start = std::chrono::steady_clock::now();
  char buffer[65536];
  while (out.fd[0] >= 0 || err.fd[0] >= 0) {
    std::vector<pollfd> fds;
    if (out.fd[0] >= 0) fds.push_back({out.fd[0], POLLIN, 0});
    if (err.fd[0] >= 0) fds.push_back({err.fd[0], POLLIN, 0});
    if (in.fd[1] >= 0) fds.push_back({in.fd[1], POLLOUT, 0});
    int wait_ms = -1;
    if (timeout_s > 0) {
      const double left = timeout_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (left <= 0) {
        kill(pid, SIGKILL);
        result.timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(left * 1000) + 1;
    }
    if (poll(fds.data(), fds.size(), wait_ms) < 0 && errno != EINTR) break;
    for (const auto& p : fds) {
      if (!p.revents) continue;
      if (p.fd == in.fd[1]) {
        const ssize_t n = write(p.fd, input.data() + written, input.size() - written);
        if (n > 0) written += static_cast<std::size_t>(n);
        if (n < 0 || written == input.size()) in.close_end(1);
        continue;
      }
      const ssize_t n = read(p.fd, buffer, sizeof buffer);
      if (n <= 0) {
        (p.fd == out.fd[0] ? out : err).close_end(0);
        continue;
      }
      (p.fd == out.fd[0] ? result.out : result.err).append(buffer, static_cast<std::size_t>(n));
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) result.exit_code = 128 + WTERMSIG(status);
  return result;
}

}  // namespace pkb
