// What a line of harness text loses before it reaches a model: the machine's paths, the harness's
// source locations and, in a correctness message, the values it compared. Feedback must help the
// model fix its kernel without showing it the grader (hack 20) or the data.
#pragma once

#include <string>

namespace pkb::feedback {

/// Absolute paths shortened ("/x/y/include/pkb/signal.cuh" -> "pkb/signal.cuh", other ones to
/// their file name) and source locations such as " (harness/executor/trial.cpp:86)" removed.
std::string redact_paths(const std::string& line);

/// A correctness message without the values it quotes: everything from " got " on is dropped
/// ("rank 3 y: 5/32 mismatches, first at [1, 3]: got 4 expected 7" keeps "...first at [1, 3]").
std::string drop_values(const std::string& message);

/// The line cut to at most `limit` characters, marked with " [...]" when cut.
std::string clip_line(const std::string& line, std::size_t limit);

}  // namespace pkb::feedback
