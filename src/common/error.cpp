// Message formatting for the located input error.
#include "src/common/error.h"

namespace pkb {

InputError::InputError(const std::string& path, const std::string& field,
                       const std::string& expected, const std::string& got)
    : Error(path + ": " + field + ": expected " + expected + ", got " + got) {}

}  // namespace pkb
