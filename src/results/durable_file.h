// Writing results so that a crash never leaves half a file: whole files go to a temporary name in
// the same folder, are flushed to disk and renamed over the target; lines are appended with one
// write and flushed.
#pragma once

#include <filesystem>
#include <string>

namespace pkb::results {

/// Throws pkb::Error naming the path when the file cannot be written. `sync` = false skips the
/// fsync for files that can be derived again (the rename still makes them all-or-nothing after a
/// crash of the process; only a power loss can lose them).
void write_file_atomic(const std::filesystem::path& path, const std::string& content,
                       bool sync = true);

/// Appends `line` (which must end in '\n') with a single write, then fsync.
void append_line_durable(const std::filesystem::path& path, const std::string& line);

std::string read_file(const std::filesystem::path& path);

/// Now, as results files stamp it: "2026-12-02T03:04:05Z".
std::string utc_now_iso();

}  // namespace pkb::results
