// Tokens of a PTX text. Identifiers keep their dots and double colons ("ld.global.nc.v4.u32",
// ".shared::cta", "%tid.x"), so the parser splits an opcode into its qualifiers itself; comments
// are dropped; every token knows its line, which messages and `.loc`-less code report.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pkb::ptx {

enum class TokenKind : std::uint8_t { ident, integer, floating, string, punct, end };

struct Token {
  TokenKind kind = TokenKind::end;
  std::string_view text;  // points into the PTX text
  int line = 0;           // 1-based
  std::uint64_t bits = 0;  // integer value, or the IEEE bits of a 0f/0d float (f32 in the low half)
  bool f32 = false;        // a 0f literal (else a double)
};

/// Splits `text` (which must outlive the tokens). Throws ParseError for a character PTX never
/// contains.
std::vector<Token> tokenize(std::string_view text);

}  // namespace pkb::ptx
