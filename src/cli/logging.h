// The one spdlog logger: stderr, colour only on a terminal without NO_COLOR.
#pragma once

#include "src/cli/command.h"

namespace pkb::cli {

void setup_logging(const GlobalOptions& global);

}  // namespace pkb::cli
