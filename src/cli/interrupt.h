// SIGINT for the long commands (generate, run, evaluate), written once: while an InterruptScope
// lives, Ctrl-C only sets a flag; workers stop taking samples, requests in flight are abandoned
// (and asked again by --resume), and what is recorded stays recorded. The default handler comes
// back when the scope ends, so a second Ctrl-C after that stops pkb at once.
#pragma once

#include <atomic>

namespace pkb::cli {

/// The flag SIGINT sets (the one global a signal handler needs); code that polls takes its address.
std::atomic<bool>& interrupted();

class InterruptScope {
 public:
  InterruptScope();  // clears the flag and installs the handler
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

}  // namespace pkb::cli
