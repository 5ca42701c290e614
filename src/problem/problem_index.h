// The problems folder: finding it, listing its problems and resolving what a user typed
// ("1", "001", "001_allreduce", "allreduce") to one problem.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "src/problem/spec.h"

namespace pkb::problem {

class ProblemIndex {
 public:
  /// Every NNN_name folder under `root` holding a problem.json, sorted by id. Loading is lazy:
  /// a malformed problem.json fails only the commands that touch it.
  explicit ProblemIndex(std::filesystem::path root);

  /// `explicit_root` (--problems-dir) wins, then $PKB_PROBLEMS_DIR, then the source tree's problems/.
  static std::filesystem::path default_root(const std::string& explicit_root);

  const std::vector<std::string>& keys() const { return keys_; }
  const std::filesystem::path& root() const { return root_; }

  /// Throws pkb::UsageError "unknown problem 'x', did you mean '001_allreduce'?".
  std::string resolve(const std::string& typed) const;
  ProblemSpec load(const std::string& key) const;
  std::vector<ProblemSpec> load_all() const;

 private:
  std::filesystem::path root_;
  std::vector<std::string> keys_;
};

}  // namespace pkb::problem
