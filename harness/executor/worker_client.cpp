// run_worker (see worker_client.h).
#include "harness/executor/worker_client.h"

#include <unistd.h>

#include <cstdlib>

#include "harness/executor/worker_progress.h"
#include "src/common/error.h"
#include "src/common/file_bytes.h"
#include "src/common/remove_tree.h"
#include "src/common/subprocess.h"

namespace pkb::harness {
namespace {

namespace fs = std::filesystem;
constexpr std::size_t kLogTail = 4000;  // bytes of the worker's stderr kept in the result

fs::path make_work_dir() {
  const fs::path base = fs::temp_directory_path();
  std::string pattern = (base / "pkb-worker-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr)
    throw Error("run_worker: cannot create a folder under " + base.string());
  return pattern;
}

std::string tail(const std::string& text, std::size_t bytes) {
  return text.size() <= bytes ? text : "..." + text.substr(text.size() - bytes);
}

// The last non-empty line, for a one-line message.
std::string last_line(const std::string& text) {
  std::istringstream lines(text);
  std::string line, last;
  while (std::getline(lines, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last;
}

std::string exit_text(int code) {
  return code > 128 ? "killed by signal " + std::to_string(code - 128)
                    : "exited with status " + std::to_string(code);
}

// $VARIABLE, else beside the running executable, else the build tree's copy.
fs::path find_program(const char* variable, const std::string& name, const char* build_path) {
  if (const char* from_env = std::getenv(variable); from_env != nullptr && *from_env != '\0') {
    if (!fs::exists(from_env))
      throw Error(std::string(variable) + "=" + from_env + ": no such file");
    return from_env;
  }
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (!error && fs::exists(self.parent_path() / name)) return self.parent_path() / name;
  if (build_path && fs::exists(build_path)) return build_path;
  throw Error(name + " not found beside " + self.string() + " (build the " + name +
              " target, or set " + variable + ")");
}

}  // namespace

fs::path worker_program() {
#ifdef PKB_WORKER_BUILD_PATH
  return find_program("PKB_WORKER", "pkb-worker", PKB_WORKER_BUILD_PATH);
#else
  return find_program("PKB_WORKER", "pkb-worker", nullptr);
#endif
}

fs::path sim_worker_program() {
#ifdef PKB_SIM_WORKER_BUILD_PATH
  return find_program("PKB_SIM_WORKER", "pkb-sim-worker", PKB_SIM_WORKER_BUILD_PATH);
#else
  return find_program("PKB_SIM_WORKER", "pkb-sim-worker", nullptr);
#endif
}

WorkerResult run_worker(WorkerRequest request, const WorkerRunOptions& options) {
  const fs::path program = options.program.empty() ? worker_program() : options.program;
  const fs::path dir = make_work_dir();
  request.progress_path = (dir / "progress.txt").string();
  request.result_path = (dir / "result.json").string();
  const fs::path request_path = dir / "request.json";
  write_file(request_path, request_to_json(request));

  const ProcessResult process =
      run_process({program.string(), request_path.string()}, "", options.deadline_s);
  const std::string stage = read_progress(request.progress_path);
  WorkerResult result;
  bool have_result = false;
  if (fs::exists(request.result_path)) {
    try {
      result = parse_result(read_file(request.result_path).value_or(""), request.result_path);
      have_result = true;
    } catch (const Error&) {
      // A torn or garbled result counts as none; the exit status below says what happened.
    }
  }
  if (!have_result) {
    result.stage = stage;
    const std::string where = stage.empty() ? "" : " (at " + stage + ")";
    if (process.timed_out) {
      result.status = WorkerStatus::timeout;
      result.message = "no result after " + format_seconds(options.deadline_s) + where +
                       ": the worker was killed";
    } else {
      result.status = WorkerStatus::runtime_error;
      const std::string last = last_line(process.err);
      result.message =
          "pkb-worker " + exit_text(process.exit_code) + where + (last.empty() ? "" : ": " + last);
    }
  }
  result.log = tail(process.err, kLogTail);
  if (!options.keep_files) {
    remove_tree(dir);
  }
  return result;
}

}  // namespace pkb::harness
