// prompts_dir (see prompts_dir.h).
#include "src/common/prompts_dir.h"

#include <cstdlib>

namespace pkb {

std::filesystem::path prompts_dir() {
  const char* env = std::getenv("PKB_PROMPTS_DIR");
  return env && *env ? std::filesystem::path(env) : std::filesystem::path(PKB_DEFAULT_PROMPTS_DIR);
}

}  // namespace pkb
