// The parent side of the pkb-nvrtc protocol (nvrtc_protocol.h).
#include "src/compile/nvrtc_child.h"

#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "src/common/error.h"
#include "src/common/file_bytes.h"
#include "src/common/subprocess.h"
#include "src/compile/nvrtc_protocol.h"

namespace pkb::compile {
namespace {

namespace fs = std::filesystem;

// How much of a dying child's stderr goes into the log: enough for an assertion message and a few
// frames of a backtrace, not a flood.
constexpr std::size_t kStderrTailBytes = 2000;

// `pkb-nvrtc --version` only loads NVRTC; if it takes longer than this, something is broken.
constexpr double kVersionTimeoutS = 30;

std::string read_bytes(const fs::path& path) {
  auto bytes = read_file(path);
  if (!bytes) throw Error(path.string() + ": cannot read");
  return *bytes;
}

std::string tail(const std::string& text) {
  return text.size() <= kStderrTailBytes ? text
                                         : "..." + text.substr(text.size() - kStderrTailBytes);
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

ChildOutcome failed(const std::string& why, const std::string& stderr_text) {
  ChildOutcome outcome;
  outcome.log = why + (stderr_text.empty() ? "" : "\n" + tail(stderr_text));
  return outcome;
}

}  // namespace

ChildOutcome run_nvrtc_child(const fs::path& program, const fs::path& work_dir,
                             const std::string& source, const std::vector<std::string>& options,
                             double timeout_s) {
  write_file(work_dir / kSourceFile, source);
  const nlohmann::json request = {
      {"name", kProgramName}, {"options", options}, {"timeout_s", timeout_s}};
  write_file(work_dir / kRequestFile, request.dump(2) + "\n");

  const ProcessResult run = run_process({program.string(), work_dir.string()}, "", timeout_s);
  if (run.timed_out) {
    ChildOutcome outcome;
    outcome.timed_out = true;
    outcome.log = "compile timed out after " + seconds_text(timeout_s) + " s";
    return outcome;
  }
  if (run.exit_code == 128 + SIGXCPU) {  // the child's own CPU-time fence (nvrtc_main.cpp)
    ChildOutcome outcome;
    outcome.timed_out = true;
    outcome.log = "compile timed out: pkb-nvrtc exceeded its cpu time limit";
    return outcome;
  }
  if (run.exit_code > 128)
    return failed("pkb-nvrtc died: signal " + std::to_string(run.exit_code - 128), run.err);
  if (run.exit_code == kExitBadRequest)
    throw Error(program.string() + ": bad request in " + work_dir.string() + ": " + tail(run.err));
  const bool answered = fs::exists(work_dir / kResultFile);
  if ((run.exit_code != kExitOk && run.exit_code != kExitCompileError) || !answered)
    return failed("pkb-nvrtc failed: exit code " + std::to_string(run.exit_code), run.err);

  const auto answer =
      nlohmann::json::parse(read_bytes(work_dir / kResultFile), nullptr, /*allow_exceptions=*/false);
  if (!answer.is_object() || !answer.contains("ok") || !answer["ok"].is_boolean())
    throw Error((work_dir / kResultFile).string() + ": expected pkb-nvrtc's answer, got '" +
                tail(read_bytes(work_dir / kResultFile)) + "'");
  ChildOutcome outcome;
  outcome.ok = answer["ok"].get<bool>() && run.exit_code == kExitOk;
  outcome.deterministic = true;
  outcome.log = read_bytes(work_dir / kLogFile);
  if (outcome.ok) {
    outcome.cubin = read_bytes(work_dir / kCubinFile);
    outcome.ptx = read_bytes(work_dir / kPtxFile);
    outcome.signatures = read_file(work_dir / kSignaturesFile).value_or("");
  }
  return outcome;
}

std::string nvrtc_version(const fs::path& program) {
  // Asked once per program and process: the answer cannot change while pkb runs, and every compile
  // needs it for its cache key (a cache hit must not start a child).
  static std::mutex mutex;
  static std::map<fs::path, std::string> known;
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto found = known.find(program); found != known.end()) return found->second;
  const ProcessResult run = run_process({program.string(), "--version"}, "", kVersionTimeoutS);
  std::string version = run.out;
  while (!version.empty() && (version.back() == '\n' || version.back() == '\r')) version.pop_back();
  if (run.exit_code != 0 || version.empty())
    throw Error(program.string() + " --version: exit code " + std::to_string(run.exit_code) + ": " +
                tail(run.err));
  known[program] = version;
  return version;
}

}  // namespace pkb::compile
