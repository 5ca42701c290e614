// pkb-worker: runs one sample on this machine's GPUs and exits (docs/ARCHITECTURE.md, "Evaluation" "Faults").
//   pkb-worker REQUEST.json
// The request (harness/executor/worker_protocol.h) names the problem, the candidate's cubin, PTX
// and plan, the secret seeds and where to write the result and the progress file. pkb starts one
// worker per sample (harness/executor/worker_client.cpp) and kills it at a deadline, so a hung or
// faulting candidate costs only this process.
#include <cstdlib>

#include "harness/cuda/cuda_baseline.h"
#include "harness/cuda/cuda_device_factory.h"
#include "harness/executor/worker_main.h"

namespace {

// Streams of all W ranks must not alias onto the 8 default hardware queues, or a spinning kernel
// can block another rank's launch. Read once, at cuInit.
constexpr const char* kDeviceConnections = "32";
// NCCL connects every algorithm's channels when communicators are made, not at a collective's
// first call, where connecting could wait for a candidate's kernel that spins on a peer.
constexpr const char* kNcclRuntimeConnect = "0";

}  // namespace

int main(int argc, char** argv) {
  setenv("CUDA_DEVICE_MAX_CONNECTIONS", kDeviceConnections, /*overwrite=*/0);
  setenv("NCCL_RUNTIME_CONNECT", kNcclRuntimeConnect, /*overwrite=*/0);
  pkb::harness::worker_main(argc, argv, "pkb-worker",
                            {pkb::harness::make_cuda_device, pkb::harness::make_cuda_baseline});
}
