// pkb's entry point: the subcommand table. pkb links no libtorch, NCCL or CUDA runtime, so the
// commands a user types all day (list, show, prompt, generate, score, ...) start in milliseconds;
// the commands that run libtorch references or GPUs are handed to pkb-torch (main_torch.cpp) with
// the same arguments. Run `pkb --help`.
#include "src/cli/command_line.h"

namespace {

using pkb::cli::CommandEntry;

// An entry without a setup runs in pkb-torch; its help line is listed here all the same.
const std::vector<CommandEntry> kCommands = {
    {"list", "List the problems: id, name, category, world sizes, default dims", pkb::cli::setup_list},
    {"show", "Show one problem: spec, Python reference, argument shapes", pkb::cli::setup_show},
    {"reference", pkb::cli::help::kReference, nullptr},
#ifndef PKB_PROBLEM_TOOLS_ONLY
    {"prompt", "Print the exact prompt a model would get for a problem (no API call)", pkb::cli::setup_prompt},
    {"generate", "Ask a model for solutions and write them to a results directory (no evaluation)",
     pkb::cli::setup_generate},
    {"eval", pkb::cli::help::kEval, nullptr},
    {"run", pkb::cli::help::kRun, nullptr},
    {"evaluate", pkb::cli::help::kEvaluate, nullptr},
    {"score", "pass@k, fast_p@k, speedups and error kinds of results directories, with 95% intervals",
     pkb::cli::setup_score},
    {"leaderboard", "Rank every results directory under a folder: leaderboard.md and a self-contained index.html",
     pkb::cli::setup_leaderboard},
    {"merge", "Merge the shard results directories of one run (--shard I/N) into one", pkb::cli::setup_merge},
    {"slurm", "Run shards as a Slurm array job (submit) and follow their progress (status)", pkb::cli::setup_slurm},
#endif
    {"validate", pkb::cli::help::kValidate, nullptr},
    {"add-problem", "Scaffold a new problem: spec, Python reference, C++ reference and answer skeletons",
     pkb::cli::setup_add_problem},
    {"doctor", pkb::cli::help::kDoctor, nullptr},
    {"sol", "Speed of light of a problem on a hardware profile: each resource's floor and which binds",
     pkb::cli::setup_sol},
};

}  // namespace

int main(int argc, char** argv) {
  const std::string word = pkb::cli::command_word(argc, argv);
  for (const auto& command : kCommands)
    if (word == command.name && !command.setup) return pkb::cli::exec_pkb_torch(argc, argv, word);
  return pkb::cli::run_command_line(argc, argv, kCommands);
}
