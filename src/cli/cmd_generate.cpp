// `pkb generate --model M --out DIR [--problems LIST] [--samples K] [--world W] [--dtype D] ...`:
// ask a model for K samples of each problem's prompt and write the results layout of docs/RESULTS.md.
// Every flag, the key, the server and the output directory are checked before anything is written
// (run_options.h, shared with `pkb run`).
#include <spdlog/spdlog.h>

#include <cstdio>

#include "src/cli/command.h"
#include "src/cli/interrupt.h"
#include "src/cli/generate_progress.h"
#include "src/cli/run_options.h"
#include "src/common/error.h"
#include "src/generate/generator.h"

namespace pkb::cli {
namespace {

}  // namespace

std::function<int()> setup_generate(CLI::App& app, const GlobalOptions& global) {
  auto flags = std::make_shared<ModelFlags>();
  add_model_flags(app, *flags, true);
  return [&global, flags] {
    PreparedGeneration prepared = prepare_generation(global, *flags, &interrupted());
    generate::GenerateConfig& config = prepared.config;
    config.run_info["command"] = "pkb generate" + model_flags_text(*flags);
    auto& client = prepared.client;

    generate::GenerateStats stats;
    generate::GenerateSummary summary;
    {
      const InterruptScope interrupt;
      GenerateProgress progress(stats, [&client] { return client->in_flight(); });
      summary = generate::run_generation(config, *client, stats);
    }
    spdlog::info(
        "generate: {} samples in {}: {} generated, {} format errors, {} api errors, {} resumed, {} "
        "from the cache",
        summary.total, flags->out, summary.generated, summary.format_errors, summary.api_errors,
        summary.resumed, summary.cached);
    if (summary.timeouts_after_accept > 0)
      spdlog::warn(
          "generate: {} requests timed out after the provider had them, and may be billed "
          "(timeouts_after_accept in samples.jsonl); --first-byte-timeout and --timeout set the "
          "waits",
          summary.timeouts_after_accept);
    if (summary.cancelled) {
      std::fprintf(stderr,
                   "pkb: interrupted: %s holds every sample finished so far; --resume continues\n",
                   flags->out.c_str());
      return 130;
    }
    // One error for a run that stopped early; its unasked samples wait for --resume.
    if (!summary.stopped.empty())
      throw WorkFailed("generate: stopped: " + summary.stopped + "; " +
                       std::to_string(summary.unasked) + " of " + std::to_string(summary.total) +
                       " samples not asked; pkb generate --resume --out " + flags->out +
                       " continues");
    if (summary.api_errors > 0)
      throw WorkFailed("generate: " + std::to_string(summary.api_errors) + " of " +
                       std::to_string(summary.total) + " samples got no answer (api_error in " +
                       flags->out + "/samples.jsonl); pkb generate --resume asks for them again");
    return 0;
  };
}

}  // namespace pkb::cli
