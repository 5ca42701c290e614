// Whole files as byte strings: the one reader and writer pkb uses for cubins, plans, results and
// text it reads in full.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace pkb {

/// The file's bytes, or nothing when it cannot be opened.
std::optional<std::string> read_file(const std::filesystem::path& path);

/// Replaces the file's content; throws pkb::Error "PATH: cannot write" on failure.
void write_file(const std::filesystem::path& path, const std::string& bytes);

/// Writes PATH.tmp, then renames it over PATH, so a reader sees the old content or the new one,
/// never a torn file. Throws pkb::Error on failure.
void replace_file(const std::filesystem::path& path, const std::string& bytes);

}  // namespace pkb
