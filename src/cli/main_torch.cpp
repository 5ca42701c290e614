// pkb-torch: the commands of pkb that run libtorch references or GPUs. pkb hands them over with
// the same arguments (src/cli/main.cpp), so users never call it; it exists so that every other
// command starts without loading libtorch, NCCL and the CUDA runtime.
#include <ATen/Parallel.h>

#include "src/cli/command_line.h"

namespace {

using pkb::cli::CommandEntry;

const std::vector<CommandEntry> kCommands = {
    {"reference", "Run the libtorch reference on W simulated ranks; --dump writes safetensors",
     pkb::cli::setup_reference},
#ifndef PKB_PROBLEM_TOOLS_ONLY
    {"eval", "Compile, check and time one solution (a model's answer, or a .cu file with --plan)",
     pkb::cli::setup_eval},
    {"run", "Generate, compile and evaluate: the whole benchmark into a results directory", pkb::cli::setup_run},
    {"evaluate", "Evaluate the answers in a results directory written by pkb generate", pkb::cli::setup_evaluate},
#endif
    {"validate", "Prove a problem's check passes reordered sums and fails broken collectives",
     pkb::cli::setup_validate},
    {"doctor", "What this machine offers: GPUs, peer access, NVLink, multicast, library versions",
     pkb::cli::setup_doctor},
};

}  // namespace

int main(int argc, char** argv) {
  // Simulated ranks are threads; one ATen thread each keeps W ranks from oversubscribing the CPU.
  return pkb::cli::run_command_line(argc, argv, kCommands, [] { at::set_num_threads(1); });
}
