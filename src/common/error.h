// The error types every stage throws; src/cli/main.cpp maps them to exit codes (docs/STYLE.md, "Errors").
#pragma once

#include <stdexcept>
#include <string>

namespace pkb {

/// Base of every error pkb raises on purpose. The message is one lowercase line, location first.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// A bad flag, value or combination of flags (exit 2).
class UsageError : public Error {
 public:
  using Error::Error;
};

/// A bad file or field (exit 2). The message reads "PATH: FIELD: expected X, got Y".
class InputError : public Error {
 public:
  InputError(const std::string& path, const std::string& field, const std::string& expected,
             const std::string& got);
  explicit InputError(const std::string& message) : Error(message) {}
};

/// The work ran and failed: a parity mismatch, a validate failure (exit 1).
class WorkFailed : public Error {
 public:
  using Error::Error;
};

/// Programmer errors only, never reachable from input.
#define PKB_ASSERT(cond, message)                                                          \
  do {                                                                                     \
    if (!(cond))                                                                           \
      throw ::pkb::Error(std::string("internal error: ") + (message) + " (" + __FILE__ + \
                         ":" + std::to_string(__LINE__) + ")");                            \
  } while (0)

}  // namespace pkb
