// The line `pkb run` ends with: pass@1 over the run's problems, who judged the samples (GPUs or
// the simulated node, which times nothing), and fast_1@1 where samples were timed.
#pragma once

#include <string>

namespace pkb::cli {

/// "pass@1 0.943 [0.897, 0.977] over 87 problems; judged on the simulated node ..."; "" when the
/// directory cannot be scored (nothing was judged).
std::string run_headline(const std::string& out);

}  // namespace pkb::cli
