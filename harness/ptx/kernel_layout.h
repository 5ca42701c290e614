// Where one kernel keeps what each of its threads and blocks needs: registers and per-thread
// frames of the kernel and every function it can call (each function once: a recursive call
// gets fresh frames above these when it runs, exec_call.cpp), and the offsets of the .shared
// variables it uses, with dynamic shared memory after them.
#pragma once

#include "harness/ptx/program.h"
#include "harness/ptx/warp.h"

namespace pkb::ptx {

KernelLayout make_kernel_layout(const Program& program, int kernel);

}  // namespace pkb::ptx
