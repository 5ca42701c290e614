// setup_logging: levels per docs/STYLE.md, "Output" (info by default, -v debug, -vv trace, -q warn).
#include "src/cli/logging.h"

#include <unistd.h>

#include <cstdlib>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace pkb::cli {

void setup_logging(const GlobalOptions& global) {
  const bool colour = isatty(STDERR_FILENO) && std::getenv("NO_COLOR") == nullptr;
  auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>(
      colour ? spdlog::color_mode::automatic : spdlog::color_mode::never);
  auto logger = std::make_shared<spdlog::logger>("pkb", sink);
  logger->set_pattern("%^%l%$: %v");
  spdlog::level::level_enum level = spdlog::level::info;
  if (global.quiet) level = spdlog::level::warn;
  if (global.verbose == 1) level = spdlog::level::debug;
  if (global.verbose >= 2) level = spdlog::level::trace;
  logger->set_level(level);
  spdlog::set_default_logger(logger);
}

}  // namespace pkb::cli
