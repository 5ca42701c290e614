// Deleting a folder and everything under it, without std::filesystem::remove_all.
//
// Why: the torch 2.x wheels' libtorch.so exports its own copy of std::filesystem::remove_all, and
// the dynamic linker binds pkb's calls to it; on a GPU machine with torch 2.11 that copy jumped
// to address 0 and pkb crashed after every GPU evaluation. This one uses POSIX nftw instead.
#pragma once

#include <filesystem>

namespace pkb {

/// Removes `path` (a file, a symbolic link or a folder with its contents; links are removed, never
/// followed). A missing path is not an error. Returns false when something could not be removed.
bool remove_tree(const std::filesystem::path& path) noexcept;

}  // namespace pkb
