// Running pkb-nvrtc (nvrtc_main.cpp) from pkb: the request written, the deadline kept, the answer
// read.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace pkb::compile {

/// What one pkb-nvrtc run gave.
struct ChildOutcome {
  bool ok = false;
  bool timed_out = false;
  bool deterministic = false;  // true for a success or a compile error: worth caching
  std::string log;
  std::string cubin;
  std::string ptx;
  std::string signatures;  // signatures.json as written (nvrtc_protocol.h); empty unless ok
};

/// Writes `source` and `options` into the empty folder `work_dir`, runs `program` on it with the
/// deadline `timeout_s`, and reads the answer (the answer files stay in `work_dir`). A timeout,
/// crash or compile error is an outcome; a bad request (a pkb bug) throws pkb::Error.
ChildOutcome run_nvrtc_child(const std::filesystem::path& program,
                             const std::filesystem::path& work_dir, const std::string& source,
                             const std::vector<std::string>& options, double timeout_s);

/// "MAJOR.MINOR" of the NVRTC that `program` links, asked once per program per process.
std::string nvrtc_version(const std::filesystem::path& program);

}  // namespace pkb::compile
