// The exact text a model gets for one problem at one setting (docs/ABI.md): the task, the Python
// reference, per-rank arguments, the hardware, the candidate ABI and in-context examples. The text
// comes from template files a user can change; the same inputs give the same bytes and hash.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include "src/common/dtype.h"
#include "src/problem/spec.h"

namespace pkb::prompt {

/// Where the text comes from. Empty paths take the defaults of default_sources().
struct PromptSources {
  std::filesystem::path template_path;  // prompts/task.md, or --template FILE
  std::filesystem::path hardware_path;  // prompts/hardware.json
  std::filesystem::path abi_path;  // docs/ABI.md
  std::filesystem::path examples_dir;  // problems/examples/ (skipped when absent)
};

/// `prompts_dir`: $PKB_PROMPTS_DIR when set, else the source tree's prompts/. `problems_root` is
/// the folder the problems came from; its examples/ folder holds the in-context examples.
PromptSources default_sources(const std::filesystem::path& problems_root);

struct PromptSetting {
  int world = 0;
  DType dtype = DType::bf16;
  std::map<std::string, std::int64_t> dims;
  std::string hardware = "h100_8";
};

struct Prompt {
  std::string text;        // the user message, byte for byte
  std::string sha256;      // of `text`
  std::string abi_source;  // the file the response-format section came from
  int examples = 0;        // in-context examples included
};

/// Throws pkb::UsageError (a bad --hardware or a world larger than the machine) or
/// pkb::InputError (an unreadable or malformed template, hardware file or example).
Prompt build_prompt(const problem::ProblemSpec& spec, const PromptSetting& setting,
                    const PromptSources& sources);

}  // namespace pkb::prompt
