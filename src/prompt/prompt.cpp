// build_prompt: gather the values, render the template, hash the bytes.
#include "src/prompt/prompt.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "src/common/error.h"
#include "src/common/prompts_dir.h"
#include "src/common/sha256.h"
#include "src/common/file_bytes.h"
#include "src/problem/size_rules.h"
#include "src/prompt/examples.h"
#include "src/sol/profile.h"
#include "src/prompt/problem_text.h"
#include "src/prompt/template.h"

namespace pkb::prompt {
namespace {

std::string read_text(const std::filesystem::path& path, const std::string& what) {
  auto text = read_file(path);
  if (!text) throw InputError(path.string() + ": cannot read the " + what);
  return *text;
}

bool has_inout(const problem::ProblemSpec& spec) {
  for (const auto& tensor : spec.outputs)
    if (tensor.inout) return true;
  return false;
}

std::string with_final_newline(std::string text) {
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text;
}

}  // namespace

PromptSources default_sources(const std::filesystem::path& problems_root) {
  const std::filesystem::path prompts = prompts_dir();
  PromptSources sources;
  sources.template_path = prompts / "task.md";
  sources.hardware_path = prompts / "hardware.json";
  // docs/ABI.md is the one description of what a model must return; the prompt embeds it.
  sources.abi_path = std::filesystem::path(PKB_DEFAULT_DOCS_DIR) / "ABI.md";
  sources.examples_dir = problems_root / "examples";
  return sources;
}

Prompt build_prompt(const problem::ProblemSpec& spec, const PromptSetting& setting,
                    const PromptSources& sources) {
  const sol::Profile hardware = sol::find_profile(sol::load_profiles(sources.hardware_path), setting.hardware);
  if (setting.world > hardware.count)
    throw UsageError("--world " + std::to_string(setting.world) + ": " + hardware.key + " has " +
                     std::to_string(hardware.count) + " GPUs");
  std::string hardware_lines;
  for (const auto& line : hardware.description) hardware_lines += line + "\n";
  // A worked answer to this very problem would turn the task into copying: leave it out.
  const ExamplesText examples = examples_text(sources.examples_dir, spec.key.substr(0, 4));

  TemplateValues values = {
      {"problem_key", spec.key},
      {"problem_name", spec.name},
      {"category", spec.category},
      {"summary", spec.summary},
      {"world", std::to_string(setting.world)},
      {"dtype", std::string(dtype_name(setting.dtype))},
      {"dims", dims_line(setting.dims)},
      {"size_rules", problem::size_rules_text(spec).empty() ? "none, any size"
                                                            : problem::size_rules_text(spec)},
      {"arguments", arguments_text(spec, setting.world, setting.dtype, setting.dims)},
      {"has_inout", has_inout(spec) ? "yes" : ""},
      {"scalars", scalars_text(spec)},
      {"groups", groups_text(spec, setting.world, setting.dims)},
      {"check_note", spec.check_note},
      {"reference_py",
       with_final_newline(read_text(spec.dir / "reference.py", "Python reference"))},
      {"hardware", hardware_lines},
      {"gpu", hardware.gpu},
      {"gpu_count", std::to_string(hardware.count)},
      {"arch", hardware.arch},
      {"abi", with_final_newline(read_text(sources.abi_path, "candidate ABI"))},
      {"examples", examples.text},
  };
  Prompt prompt;
  prompt.text = render_template(read_text(sources.template_path, "prompt template"), values,
                                sources.template_path.string());
  prompt.sha256 = sha256_hex(prompt.text);
  prompt.abi_source = sources.abi_path.string();
  prompt.examples = examples.count;
  return prompt;
}

}  // namespace pkb::prompt
