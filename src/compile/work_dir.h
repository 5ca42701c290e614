// A fresh, empty, uniquely named folder that is removed with everything in it when the owner goes
// out of scope (unless it was renamed away first, as a finished cache entry is).
#pragma once

#include <filesystem>
#include <string>

namespace pkb::compile {

class WorkDir {
 public:
  /// Creates `parent`/`prefix`XXXXXX (and `parent` if needed). Throws pkb::Error.
  WorkDir(const std::filesystem::path& parent, const std::string& prefix);
  ~WorkDir();
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace pkb::compile
