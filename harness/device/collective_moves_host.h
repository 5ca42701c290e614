// The moves of an emulated collective (collective_moves.h) run on the host, for devices whose
// memory is host memory (the simulated node, the executor's host-memory test device). Reductions
// follow the pkb_harness_reduce kernel the emulated GPU path runs: accumulated in double (64-bit
// integers for integer types) in rank order, then rounded once (through f32 for bf16 and fp16).
#pragma once

#include <functional>
#include <vector>

#include "harness/device/collective_moves.h"

namespace pkb::harness {

/// Runs `moves` in order; `wrote(address, bytes)` is told of every byte range written.
void run_moves_on_host(const std::vector<CollectiveMove>& moves,
                       const std::function<void(DevAddr, std::uint64_t)>& wrote = {});

}  // namespace pkb::harness
