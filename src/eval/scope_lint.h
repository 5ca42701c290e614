// A PTX lint for the one bug emulation cannot catch: ordering at GPU
// scope (`ld.acquire.gpu`, `st.release.gpu`, `fence.*.gpu`, `membar.gl`, i.e. __threadfence())
// in a kernel that reaches other ranks' memory. On one GPU such a kernel works; across NVLink the
// peer need not see the writes in order. The result is a warning in the sample, not a verdict.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace pkb::eval {

/// One line per kernel of `peer_kernels` whose PTX body orders memory at GPU scope only, naming
/// the first such instruction.
std::vector<std::string> gpu_scope_warnings(const std::string& ptx, const std::set<std::string>& peer_kernels);

}  // namespace pkb::eval
