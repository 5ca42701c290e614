// Whether a run emulates W ranks on one GPU (docs/ARCHITECTURE.md, "Evaluation" "Emulation"). Pure: unit-tested.
#pragma once

#include "harness/executor/worker_protocol.h"

namespace pkb::harness {

/// `on`: always; `off`: never, and throws pkb::Error naming the shortfall when the machine has
/// fewer than `world` GPUs; `auto`: when it has fewer. Throws when `gpus` < 1.
bool decide_emulation(EmulateMode mode, int world, int gpus);

}  // namespace pkb::harness
