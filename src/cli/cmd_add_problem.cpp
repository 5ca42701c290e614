// `pkb add-problem NAME --category C [--from FILE.py] [--world-sizes 2,4,8] [--id N]`: writes a
// new problem's spec, Python reference and C++ skeleton (src/scaffold), then prints what to do next.
#include <iostream>

#include "src/cli/command.h"
#include "src/common/error.h"
#include "src/problem/problem_index.h"
#include "src/problem/spec_loader.h"
#include "src/scaffold/scaffold.h"

namespace pkb::cli {
namespace fs = std::filesystem;

std::function<int()> setup_add_problem(CLI::App& app, const GlobalOptions& global) {
  struct Flags {
    std::string name, category, from, world_sizes = "2,4,8";
    int id = 0;
  };
  auto flags = std::make_shared<Flags>();
  app.add_option("name", flags->name, "The new problem's name: lowercase letters, digits, underscores")->required();
  app.add_option("--category", flags->category, "collective, tensor-parallel, loss, ... (pkb list shows them in use)")
      ->required();
  app.add_option("--from", flags->from, "An existing PyTorch reference.py defining solution(...), copied in");
  app.add_option("--world-sizes", flags->world_sizes, "World sizes it allows (default 2,4,8)");
  app.add_option("--id", flags->id, "Its id (default: one more than the highest in use)");
  return [&global, flags] {
    scaffold::NewProblem problem;
    problem.id = flags->id;
    problem.name = flags->name;
    problem.category = flags->category;
    problem.world_sizes = scaffold::parse_world_sizes(flags->world_sizes);
    if (!flags->from.empty()) problem.from = fs::path(flags->from);
    const fs::path problems_dir = problem::ProblemIndex::default_root(global.problems_dir);
    const scaffold::Created created = scaffold::add_problem(problems_dir, problem);

    // Show paths relative to the repository, which is where the user runs the next commands.
    const fs::path repo = fs::absolute(problems_dir).parent_path();
    std::cout << "created " << created.key << ":\n";
    for (const auto& file : created.files)
      if (!fs::is_directory(file)) std::cout << "  " << fs::relative(file, repo).string() << "\n";
    const auto& signature = created.signature;
    std::cout << "  inputs " << signature.inputs.size() << ", scalars " << signature.scalars.size()
              << (signature.takes_groups ? ", a sub-group" : "") << (flags->from.empty() ? " (skeleton)" : " (from --from)")
              << "\n\nnext steps (docs/ADDING_A_PROBLEM.md explains each):\n"
              << "  1. problems/" << created.key << "/problem.json: dims, test_dims, shapes, dtypes, tolerances, the\n"
              << "     docs and summary (every TODO), and upstream_divergence if pkb's version differs\n"
              << "  2. problems/" << created.key << "/reference.py: solution() in plain PyTorch + torch.distributed\n"
              << "  3. reference/" << created.key << ".cpp: make_inputs and solve (they throw until written)\n"
              << "  4. ninja -C build pkb          # the build finds reference/NNN_*.cpp; tests find problems/\n"
              << "  5. build/pkb validate " << created.key << " --dtype bf16,fp16,fp32\n"
              << "  6. " << "python3 scripts/parity.py --pkb build/pkb --world "
              << problem.world_sizes.front() << " --problems " << created.key << " --dtypes bf16,fp32\n"
              << "  7. problems/" << created.key << "/answer.md: a known-correct answer, written from\n"
              << "     build/pkb prompt " << created.key << " alone (eval_answers_tests fails until it is)\n"
              << "  8. scripts/test.sh             # every problem's parity, validation and answer, yours included\n";
    return 0;
  };
}

}  // namespace pkb::cli
