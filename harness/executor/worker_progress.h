// The worker's current stage ("trial 2: call", "timing round 1: candidate") in a small file, so
// that when pkb kills a hung worker its message can say where the worker was.
#pragma once

#include <string>

namespace pkb::harness {

/// Replaces the file's content with `stage` (write to a temporary name, then rename, so a reader
/// never sees half a line). Never throws: progress is diagnostics, not results. No-op for "".
void write_progress(const std::string& path, const std::string& stage);

/// The last stage written, or "" when there is none.
std::string read_progress(const std::string& path);

}  // namespace pkb::harness
