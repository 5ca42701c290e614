// `pkb merge OUT DIR...`: the shard results directories of one run (pkb run|evaluate|generate
// --shard I/N, or `pkb slurm submit`) become one directory that score and leaderboard read as one
// run. Refuses different settings, a sample twice and missing samples, naming which (src/merge).
#include <spdlog/spdlog.h>

#include "src/cli/command.h"
#include "src/merge/merge.h"

namespace pkb::cli {

std::function<int()> setup_merge(CLI::App& app, const GlobalOptions&) {
  struct Flags {
    std::string out;
    std::vector<std::string> dirs;
  };
  auto flags = std::make_shared<Flags>();
  app.add_option("out", flags->out, "Merged results directory OUT (holds no run; may hold the shards)")->required();
  app.add_option("dirs", flags->dirs, "Shard results directories DIR... (one per shard)")->required();
  return [flags] {
    merge::MergeRequest request;
    request.out = flags->out;
    request.command = "pkb merge " + flags->out;
    for (const auto& dir : flags->dirs) {
      request.dirs.emplace_back(dir);
      request.command += " " + dir;
    }
    const merge::MergeResult result = merge::merge_shards(request);
    spdlog::info("merge: {} samples from {} directories into {}: {} ({} files copied)", result.samples,
                 flags->dirs.size(), flags->out, result.summary.status_text(), result.files);
    return 0;
  };
}

}  // namespace pkb::cli
