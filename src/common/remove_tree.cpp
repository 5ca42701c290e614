// remove_tree (see remove_tree.h).
#include "src/common/remove_tree.h"

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

namespace pkb {
namespace {

int remove_entry(const char* path, const struct stat*, int type, struct FTW*) {
  // Depth-first (FTW_DEPTH): a folder comes after its contents. Keep going past failures, so as
  // much as possible is removed; the final lstat reports whether the root is gone.
  if (type == FTW_DP) ::rmdir(path);
  else ::unlink(path);
  return 0;
}

}  // namespace

bool remove_tree(const std::filesystem::path& path) noexcept {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return errno == ENOENT;
  if (!S_ISDIR(info.st_mode)) return ::unlink(path.c_str()) == 0;
  ::nftw(path.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  return ::lstat(path.c_str(), &info) != 0 && errno == ENOENT;
}

}  // namespace pkb
