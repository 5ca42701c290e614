// Running one sample in a fresh pkb-worker process (docs/ARCHITECTURE.md, "Evaluation" "Faults"): a hang is killed at
// the deadline (timeout), a crash or a sticky CUDA error ends only that process (runtime_error),
// and the caller never dies because of a candidate. No CUDA here: pkb eval calls this.
#pragma once

#include <filesystem>
#include <string>

#include "harness/executor/worker_protocol.h"

namespace pkb::harness {

/// Where pkb-worker is: $PKB_WORKER, else beside the running executable, else the build tree's.
/// Throws pkb::Error when none exists.
std::filesystem::path worker_program();
/// Where pkb-sim-worker is: $PKB_SIM_WORKER, else beside the running executable, else the build
/// tree's. Throws pkb::Error when none exists.
std::filesystem::path sim_worker_program();

struct WorkerRunOptions {
  double deadline_s = 600;        // the whole sample; the process is killed after it
  std::filesystem::path program;  // empty: worker_program()
  bool keep_files = false;        // keep the request/result folder (debugging)
};

/// Writes the request (progress_path and result_path are set here) into a fresh temporary
/// folder, runs the worker, and returns its result. A worker that wrote a result is believed even
/// if it was killed afterwards (a hung kernel can keep a process from exiting). Without a result:
/// killed at the deadline -> timeout with the last stage; any other end -> runtime_error with the
/// exit status and the tail of its stderr. Throws pkb::Error only for pkb-side failures (no
/// worker program, no temporary folder).
WorkerResult run_worker(WorkerRequest request, const WorkerRunOptions& options = {});

}  // namespace pkb::harness
