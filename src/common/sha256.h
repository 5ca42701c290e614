// SHA-256 (FIPS 180-4), for prompt hashes and response-cache keys. Written here so pkb needs no
// crypto library.
#pragma once

#include <string>
#include <string_view>

namespace pkb {

/// Lowercase hex digest of `bytes`.
std::string sha256_hex(std::string_view bytes);

}  // namespace pkb
