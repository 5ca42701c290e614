// The body both worker programs share (pkb-worker on GPUs, pkb-sim-worker on the simulated node):
// read the request named on the command line, run the sample on `backend`, write the result, and
// end the process without destructors (after a hang, CUDA, NCCL and libtorch teardown can block).
// Exit status: 0 when a result was written (whatever the candidate did), 2 for an unreadable
// request, 1 when even the result could not be written.
#pragma once

#include "harness/executor/executor.h"

namespace pkb::harness {

/// `program` names the worker in its messages ("pkb-worker").
[[noreturn]] void worker_main(int argc, char** argv, const char* program, const Backend& backend);

}  // namespace pkb::harness
