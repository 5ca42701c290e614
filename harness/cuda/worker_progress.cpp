// The progress file (see worker_progress.h).
#include "harness/cuda/worker_progress.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace pkb::harness {

void write_progress(const std::string& path, const std::string& stage) {
  if (path.empty()) return;
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    if (!out) return;
    out << stage;
  }
  std::rename(temporary.c_str(), path.c_str());
}

std::string read_progress(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "";
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace pkb::harness
