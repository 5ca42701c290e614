// The progress file (see worker_progress.h).
#include "harness/executor/worker_progress.h"

#include "src/common/error.h"
#include "src/common/file_bytes.h"

namespace pkb::harness {

void write_progress(const std::string& path, const std::string& stage) {
  if (path.empty()) return;
  try {
    replace_file(path, stage);
  } catch (const Error&) {
    // Progress is a diagnostic: a worker that cannot write it still does its work.
  }
}

std::string read_progress(const std::string& path) { return read_file(path).value_or(""); }

}  // namespace pkb::harness
