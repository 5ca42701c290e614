// InterruptScope (see interrupt.h).
#include "src/cli/interrupt.h"

#include <csignal>

namespace pkb::cli {
namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt(int) { g_interrupted = true; }

}  // namespace

std::atomic<bool>& interrupted() { return g_interrupted; }

InterruptScope::InterruptScope() {
  g_interrupted = false;
  std::signal(SIGINT, on_interrupt);
}

InterruptScope::~InterruptScope() { std::signal(SIGINT, SIG_DFL); }

}  // namespace pkb::cli
