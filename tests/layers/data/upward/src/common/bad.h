// A deliberate upward include: the base layer reaching the command line.
#pragma once

#include "src/cli/command.h"
