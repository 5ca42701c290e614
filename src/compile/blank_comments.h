// Text with its // and /* */ comments blanked (newlines kept, so line numbers hold), string
// literals left as they are: a name inside a comment is never read as a declaration. Both PTX
// (".entry" lines; .file directives hold quoted paths) and CUDA source (kernel parameter names)
// are scanned after it.
#pragma once

#include <string>

namespace pkb::compile {

std::string blank_comments(const std::string& text);

}  // namespace pkb::compile
