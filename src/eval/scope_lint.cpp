// gpu_scope_warnings: split the PTX into entry bodies, look for GPU-scope ordering in the bodies
// of kernels that take peer pointers. Device functions pkb.cuh offers are inlined, so their
// system-scope instructions appear in the body; a candidate's own non-inlined .func is not
// followed (a warning, not a proof).
#include "src/eval/scope_lint.h"

#include <regex>

namespace pkb::eval {

std::vector<std::string> gpu_scope_warnings(const std::string& ptx, const std::set<std::string>& peer_kernels) {
  static const std::regex entry(R"(\.entry\s+([A-Za-z_$][\w$]*)\s*\()");
  static const std::regex gpu_scope(
      R"(\b((?:ld|st|atom|red)\.(?:[a-z0-9_]+\.)*(?:acquire|release|acq_rel)\.gpu\b[.\w]*|fence\.(?:sc|acq_rel)\.gpu\b|membar\.gl\b))");
  std::vector<std::string> warnings;
  std::vector<std::pair<std::string, std::size_t>> entries;
  for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), entry); it != std::sregex_iterator(); ++it)
    entries.push_back({(*it)[1].str(), static_cast<std::size_t>(it->position())});
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& [name, start] = entries[i];
    if (!peer_kernels.count(name)) continue;
    const std::size_t end = i + 1 < entries.size() ? entries[i + 1].second : ptx.size();
    const std::string body = ptx.substr(start, end - start);
    std::smatch match;
    if (std::regex_search(body, match, gpu_scope))
      warnings.push_back("kernel '" + name + "' reaches other ranks' memory but orders it at GPU scope (" +
                         match[1].str() + "): across GPUs use system scope (pkb::ld_acquire_sys, "
                         "pkb::st_release_sys, __threadfence_system())");
  }
  return warnings;
}

}  // namespace pkb::eval
