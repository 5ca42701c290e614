// Copying a shard's files (solutions/, responses/, logs/) into the merged directory.
#pragma once

#include <filesystem>

namespace pkb::merge {

/// Copies every file under `from` to the same relative path under `to`. A file already there with
/// the same bytes is left (two shards may share a cached response); different bytes are an
/// InputError naming both files. Returns the number of files copied.
int copy_tree(const std::filesystem::path& from, const std::filesystem::path& to);

}  // namespace pkb::merge
