// The part of an NVRTC log a model needs to fix its source: the first few errors, each with the
// source and caret lines NVRTC prints under it, and how many more there were.
#pragma once

#include <string>

namespace pkb::feedback {

/// At most five errors and forty lines, each line cut at 300 characters, then "(N more errors not
/// shown)". "" when the log holds no error line (a compile that timed out has none). Anything from
/// a "--- worker ---" line on is ignored: logs/P/sample_K.txt appends the GPU worker's output
/// there.
std::string compile_error_excerpt(const std::string& log);

}  // namespace pkb::feedback
