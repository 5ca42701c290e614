// `pkb prompt P [--world W] [--dtype D] [--dims ...] [--hardware h100_8|h200_8|b200_8]
// [--template FILE] [--hash | --json]`: the exact text a model would get, on stdout, byte for byte.
#include <spdlog/spdlog.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "src/cli/command.h"
#include "src/cli/problem_args.h"
#include "src/cli/run_options.h"
#include "src/common/error.h"
#include "src/problem/dims.h"
#include "src/prompt/prompt.h"

namespace pkb::cli {

std::function<int()> setup_prompt(CLI::App& app, const GlobalOptions& global) {
  struct Flags {
    std::string problem, hardware = "h100_8", template_path;
    SettingFlags setting;
    bool hash = false, json = false;
  };
  auto flags = std::make_shared<Flags>();
  app.add_option("problem", flags->problem, "Problem id or name (e.g. 1, 001_allreduce, allreduce)")
      ->required();
  add_setting_flags(app, flags->setting);
  app.add_option("--hardware", flags->hardware,
                 "Machine described to the model: h100_8, h200_8 or b200_8 (default h100_8)");
  app.add_option("--template", flags->template_path,
                 "Prompt template FILE (default prompts/task.md)");
  app.add_flag("--hash", flags->hash, "Print only the prompt's SHA-256");
  app.add_flag("--json", flags->json,
               "Print one JSON document: the text, its SHA-256 and the setting");
  return [&global, flags] {
    if (flags->hash && flags->json) throw UsageError("prompt: give --hash or --json, not both");
    const auto index = open_index(global);
    const auto spec = index.load(index.resolve(flags->problem));
    const prompt::PromptSetting setting = prompt_setting(spec, flags->setting, flags->hardware);
    const auto sources = prompt_sources(index, flags->template_path);
    const auto built = prompt::build_prompt(spec, setting, sources);
    spdlog::info("prompt: {} at W={}, {}: {} bytes, sha256 {}", spec.key, setting.world,
                 dtype_name(setting.dtype), built.text.size(), built.sha256);
    if (flags->hash) {
      std::cout << built.sha256 << "\n";
    } else if (flags->json) {
      nlohmann::ordered_json doc = {{"schema_version", 1},
                                    {"problem", spec.key},
                                    {"world", setting.world},
                                    {"dtype", dtype_name(setting.dtype)},
                                    {"dims", setting.dims},
                                    {"hardware", setting.hardware},
                                    {"template", sources.template_path.string()},
                                    {"abi_source", built.abi_source},
                                    {"examples", built.examples},
                                    {"sha256", built.sha256},
                                    {"text", built.text}};
      std::cout << doc.dump(2) << "\n";
    } else {
      std::cout << built.text;
    }
    return 0;
  };
}

}  // namespace pkb::cli
