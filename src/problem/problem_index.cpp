// ProblemIndex: discovery and name resolution.
#include "src/problem/problem_index.h"

#include <algorithm>
#include <cstdlib>
#include <regex>

#include "src/common/did_you_mean.h"
#include "src/common/error.h"
#include "src/problem/spec_loader.h"

namespace pkb::problem {

ProblemIndex::ProblemIndex(std::filesystem::path root) : root_(std::move(root)) {
  std::error_code error;
  if (!std::filesystem::is_directory(root_, error))
    throw InputError(root_.string() + ": problems folder not found (set --problems-dir or PKB_PROBLEMS_DIR)");
  static const std::regex kKey("[0-9]{3}_[a-z0-9_]+");
  for (const auto& entry : std::filesystem::directory_iterator(root_)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && std::regex_match(name, kKey) &&
        std::filesystem::exists(entry.path() / "problem.json"))
      keys_.push_back(name);
  }
  std::sort(keys_.begin(), keys_.end());
}

std::filesystem::path ProblemIndex::default_root(const std::string& explicit_root) {
  if (!explicit_root.empty()) return explicit_root;
  if (const char* env = std::getenv("PKB_PROBLEMS_DIR"); env != nullptr && *env != '\0') return env;
  return PKB_DEFAULT_PROBLEMS_DIR;
}

std::string ProblemIndex::resolve(const std::string& typed) const {
  const bool numeric = !typed.empty() && std::all_of(typed.begin(), typed.end(), ::isdigit);
  for (const auto& key : keys_) {
    if (key == typed) return key;
    if (numeric && std::stoi(key.substr(0, 3)) == std::stoi(typed)) return key;
    if (key.substr(4) == typed) return key;
  }
  std::string message = "unknown problem '" + typed + "'";
  if (auto near = closest_match(typed, keys_)) message += ", did you mean '" + *near + "'?";
  else message += " (pkb list shows the problems)";
  throw UsageError(message);
}

ProblemSpec ProblemIndex::load(const std::string& key) const { return load_problem(root_ / key); }

std::vector<ProblemSpec> ProblemIndex::load_all() const {
  std::vector<ProblemSpec> specs;
  for (const auto& key : keys_) specs.push_back(load(key));
  return specs;
}

}  // namespace pkb::problem
