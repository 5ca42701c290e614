// Errors of the PTX front end. A text the parser cannot read is a ParseError (pkb's side: NVRTC
// wrote it, so it is a gap in the parser, reported with the PTX line). An instruction the
// interpreter does not implement is not an error here: it decodes to an instruction that stops the
// simulation when a thread reaches it (exec_fault.h), so code that never runs it still runs.
#pragma once

#include <string>

#include "src/common/error.h"

namespace pkb::ptx {

class ParseError : public Error {
 public:
  ParseError(int line, const std::string& message)
      : Error("PTX line " + std::to_string(line) + ": " + message), line_(line) {}
  int line() const { return line_; }

 private:
  int line_;
};

}  // namespace pkb::ptx
