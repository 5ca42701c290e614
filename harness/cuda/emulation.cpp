// decide_emulation (see emulation.h).
#include "harness/cuda/emulation.h"

#include <string>

#include "src/common/error.h"

namespace pkb::harness {

bool decide_emulation(EmulateMode mode, int world, int gpus) {
  if (gpus < 1) throw Error("executor: no GPU is visible");
  switch (mode) {
    case EmulateMode::on: return true;
    case EmulateMode::off:
      if (gpus < world)
        throw Error("executor: world " + std::to_string(world) + " needs " + std::to_string(world) +
                    " GPUs, this machine has " + std::to_string(gpus) + " (emulation is off)");
      return false;
    case EmulateMode::auto_detect: return gpus < world;
  }
  return false;
}

}  // namespace pkb::harness
