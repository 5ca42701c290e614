// The registers per thread ptxas gave each kernel, read from the cubin (its .nv.info section's
// EIATTR_REGCOUNT records), so the simulated node fits as many blocks on an SM as the GPU would.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace pkb::harness {

/// Kernel name -> registers per thread; empty when the bytes are not a cubin pkb can read.
std::map<std::string, std::uint32_t> cubin_registers(const std::string& cubin);

}  // namespace pkb::harness
