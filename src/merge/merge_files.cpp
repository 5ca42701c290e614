// Per-sample files never collide between shards (each shard owns its samples); the check is for
// a directory given twice under two names, or a shard tampered with.
#include "src/merge/merge_files.h"

#include "src/common/error.h"
#include "src/results/durable_file.h"

namespace pkb::merge {
namespace fs = std::filesystem;

int copy_tree(const fs::path& from, const fs::path& to) {
  if (!fs::is_directory(from)) return 0;
  int copied = 0;
  for (const auto& entry : fs::recursive_directory_iterator(from)) {
    if (!entry.is_regular_file()) continue;
    const fs::path target = to / fs::relative(entry.path(), from);
    if (fs::exists(target)) {
      if (results::read_file(target) != results::read_file(entry.path()))
        throw InputError(entry.path().string() + ": differs from " + target.string() +
                         ", copied from another shard");
      continue;
    }
    fs::create_directories(target.parent_path());
    fs::copy_file(entry.path(), target);
    ++copied;
  }
  return copied;
}

}  // namespace pkb::merge
