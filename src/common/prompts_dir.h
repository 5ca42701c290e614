// Where the text pkb sends models and reads profiles from lives: $PKB_PROMPTS_DIR when set, else
// the source tree's prompts/ (task.md, feedback.md, hardware.json). One lookup for every reader.
#pragma once

#include <filesystem>

namespace pkb {

std::filesystem::path prompts_dir();

}  // namespace pkb
