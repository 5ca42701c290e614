// pkb-torch: the commands of pkb that run libtorch references or GPUs. pkb hands them over with
// the same arguments (src/cli/main.cpp), so users never call it; it exists so that every other
// command starts without loading libtorch, NCCL and the CUDA runtime.
#include <ATen/Parallel.h>

#include "src/cli/command_line.h"

namespace {

using pkb::cli::CommandEntry;

const std::vector<CommandEntry> kCommands = {
    {"reference", pkb::cli::help::kReference, pkb::cli::setup_reference},
#ifndef PKB_PROBLEM_TOOLS_ONLY
    {"eval", pkb::cli::help::kEval, pkb::cli::setup_eval},
    {"run", pkb::cli::help::kRun, pkb::cli::setup_run},
    {"evaluate", pkb::cli::help::kEvaluate, pkb::cli::setup_evaluate},
#endif
    {"validate", pkb::cli::help::kValidate, pkb::cli::setup_validate},
    {"doctor", pkb::cli::help::kDoctor, pkb::cli::setup_doctor},
};

}  // namespace

int main(int argc, char** argv) {
  // Simulated ranks are threads; one ATen thread each keeps W ranks from oversubscribing the CPU.
  return pkb::cli::run_command_line(argc, argv, kCommands, [] { at::set_num_threads(1); });
}
