// worker_main (see worker_main.h).
#include "harness/executor/worker_main.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "src/common/error.h"
#include "src/common/file_bytes.h"

namespace pkb::harness {
namespace {

bool write_result(const WorkerResult& result, const std::string& path) {
  try {
    replace_file(path, result_to_json(result));
    return true;
  } catch (const Error&) {
    return false;
  }
}

[[noreturn]] void finish(int status) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  _exit(status);
}

}  // namespace

void worker_main(int argc, char** argv, const char* program, const Backend& backend) {
  if (argc != 2) {
    std::cerr << "usage: " << program << " REQUEST.json\n";
    finish(2);
  }
  WorkerRequest request;
  try {
    const auto text = read_file(argv[1]);
    if (!text) throw Error(std::string(argv[1]) + ": cannot read");
    request = parse_request(*text, argv[1]);
  } catch (const std::exception& error) {
    std::cerr << program << ": error: " << error.what() << "\n";
    finish(2);
  }
  WorkerResult result;
  try {
    result = run_sample(request, backend);
  } catch (const std::exception& error) {
    // pkb's own side failed (a missing problem, a reference that threw): still a result, so pkb
    // records why instead of a bare exit status.
    result.status = WorkerStatus::runtime_error;
    result.message = std::string("executor: ") + error.what();
  }
  if (!write_result(result, request.result_path)) {
    std::cerr << program << ": error: cannot write " << request.result_path << "\n";
    finish(1);
  }
  finish(0);
}

}  // namespace pkb::harness
