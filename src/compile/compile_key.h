// The cache key of a compile: SHA-256 over everything that decides NVRTC's output
//. A cubin does not depend on the driver, so nothing about the GPU or
// driver goes in.
#pragma once

#include <string>
#include <vector>

#include "src/compile/nvrtc_options.h"

namespace pkb::compile {

/// Hex SHA-256 of the source, the machine-independent option list, the NVRTC version, the arch and
/// the bytes (with relative paths) of every file under the pkb include folder and the shim folder.
std::string compile_key(const std::string& source, const std::vector<std::string>& symbolic_options,
                        const std::string& nvrtc_version, const std::string& arch,
                        const IncludeDirs& dirs);

}  // namespace pkb::compile
