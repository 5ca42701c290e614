// pkb-worker: runs one sample on this machine's GPUs and exits (docs/ARCHITECTURE.md, "Evaluation" "Faults").
//   pkb-worker REQUEST.json
// The request (harness/cuda/worker_protocol.h) names the problem, the candidate's cubin, PTX and
// plan, the secret seeds and where to write the result and the progress file. pkb starts one
// worker per sample (harness/cuda/worker_client.cpp) and kills it at a deadline, so a hung or
// faulting candidate costs only this process. Exit status: 0 when a result was written (whatever
// the candidate did), 2 for an unreadable request, 1 when even the result could not be written.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "harness/cuda/cuda_device_factory.h"
#include "harness/cuda/executor.h"
#include "harness/cuda/worker_protocol.h"
#include "src/common/error.h"
#include "src/common/file_bytes.h"

namespace {

// Streams of all W ranks must not alias onto the 8 default hardware queues, or a spinning kernel
// can block another rank's launch. Read once, at cuInit.
constexpr const char* kDeviceConnections = "32";
// NCCL connects every algorithm's channels when communicators are made, not at a collective's
// first call, where connecting could wait for a candidate's kernel that spins on a peer.
constexpr const char* kNcclRuntimeConnect = "0";

bool write_result(const pkb::harness::WorkerResult& result, const std::string& path) {
  try {
    pkb::replace_file(path, pkb::harness::result_to_json(result));
    return true;
  } catch (const pkb::Error&) {
    return false;
  }
}

// Ends without destructors: after a hang the CUDA, NCCL and libtorch teardown can block.
[[noreturn]] void finish(int status) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  _exit(status);
}

}  // namespace

int main(int argc, char** argv) {
  setenv("CUDA_DEVICE_MAX_CONNECTIONS", kDeviceConnections, /*overwrite=*/0);
  setenv("NCCL_RUNTIME_CONNECT", kNcclRuntimeConnect, /*overwrite=*/0);
  if (argc != 2) {
    std::cerr << "usage: pkb-worker REQUEST.json\n";
    finish(2);
  }
  pkb::harness::WorkerRequest request;
  try {
    const auto text = pkb::read_file(argv[1]);
    if (!text) throw pkb::Error(std::string(argv[1]) + ": cannot read");
    request = pkb::harness::parse_request(*text, argv[1]);
  } catch (const std::exception& error) {
    std::cerr << "pkb-worker: error: " << error.what() << "\n";
    finish(2);
  }
  pkb::harness::WorkerResult result;
  try {
    result = pkb::harness::run_sample(request, pkb::harness::make_cuda_device);
  } catch (const std::exception& error) {
    // pkb's own side failed (a missing problem, a reference that threw): still a result, so pkb
    // records why instead of a bare exit status.
    result.status = pkb::harness::WorkerStatus::runtime_error;
    result.message = std::string("executor: ") + error.what();
  }
  if (!write_result(result, request.result_path)) {
    std::cerr << "pkb-worker: error: cannot write " << request.result_path << "\n";
    finish(1);
  }
  finish(0);
}
