// Temporary folders for compiles (see work_dir.h).
#include "src/compile/work_dir.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "src/common/error.h"
#include "src/common/remove_tree.h"

namespace pkb::compile {

WorkDir::WorkDir(const std::filesystem::path& parent, const std::string& prefix) {
  std::error_code error;
  std::filesystem::create_directories(parent, error);
  if (error) throw Error(parent.string() + ": cannot create: " + error.message());
  std::string name = (parent / (prefix + "XXXXXX")).string();
  if (mkdtemp(name.data()) == nullptr)
    throw Error(name + ": cannot create: " + std::strerror(errno));
  path_ = name;
}

WorkDir::~WorkDir() {
  remove_tree(path_);  // a destructor cannot report; a leftover temp folder is harmless
}

}  // namespace pkb::compile
