// tokenize (see ptx_lexer.h).
#include "harness/ptx/ptx_lexer.h"

#include <cctype>
#include <cstdlib>

#include "harness/ptx/ptx_error.h"

namespace pkb::ptx {
namespace {

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' ||
         c == '.';
}

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    while (true) {
      skip_space_and_comments();
      if (at_ >= text_.size()) break;
      tokens.push_back(next());
    }
    Token end;
    end.line = line_;
    tokens.push_back(end);
    return tokens;
  }

 private:
  void skip_space_and_comments() {
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '\n') {
        ++line_;
        ++at_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++at_;
      } else if (c == '/' && at_ + 1 < text_.size() && text_[at_ + 1] == '/') {
        while (at_ < text_.size() && text_[at_] != '\n') ++at_;
      } else if (c == '/' && at_ + 1 < text_.size() && text_[at_ + 1] == '*') {
        at_ += 2;
        while (at_ + 1 < text_.size() && !(text_[at_] == '*' && text_[at_ + 1] == '/')) {
          if (text_[at_] == '\n') ++line_;
          ++at_;
        }
        at_ += 2;
      } else {
        return;
      }
    }
  }

  Token make(TokenKind kind, std::size_t start) {
    Token token;
    token.kind = kind;
    token.text = text_.substr(start, at_ - start);
    token.line = line_;
    return token;
  }

  Token next() {
    const std::size_t start = at_;
    const char c = text_[at_];
    if (c == '0' && at_ + 1 < text_.size() && (text_[at_ + 1] == 'f' || text_[at_ + 1] == 'F' ||
                                                text_[at_ + 1] == 'd' || text_[at_ + 1] == 'D'))
      return hex_float(start);
    if (std::isdigit(static_cast<unsigned char>(c))) return number(start);
    if (ident_start(c)) {
      ++at_;
      while (at_ < text_.size()) {
        if (ident_char(text_[at_])) {
          ++at_;
        } else if (text_[at_] == ':' && at_ + 1 < text_.size() && text_[at_ + 1] == ':') {
          at_ += 2;  // ".shared::cta", "mbarrier::complete_tx::bytes"
        } else {
          break;
        }
      }
      return make(TokenKind::ident, start);
    }
    if (c == '"') {
      ++at_;
      while (at_ < text_.size() && text_[at_] != '"') {
        if (text_[at_] == '\n') ++line_;
        ++at_;
      }
      ++at_;
      return make(TokenKind::string, start);
    }
    if (std::string_view("{}[](),;:+-!@<>|=*/~&^").find(c) != std::string_view::npos) {
      ++at_;
      return make(TokenKind::punct, start);
    }
    throw ParseError(line_, std::string("unexpected character '") + c + "'");
  }

  // 0fXXXXXXXX (f32 bits) and 0dXXXXXXXXXXXXXXXX (f64 bits).
  Token hex_float(std::size_t start) {
    const bool f32 = text_[at_ + 1] == 'f' || text_[at_ + 1] == 'F';
    at_ += 2;
    std::uint64_t bits = 0;
    int digits = 0;
    while (at_ < text_.size() && hex_digit(text_[at_]) >= 0) {
      bits = bits << 4 | static_cast<std::uint64_t>(hex_digit(text_[at_]));
      ++at_;
      ++digits;
    }
    if (digits != (f32 ? 8 : 16)) throw ParseError(line_, "malformed hex float literal");
    Token token = make(TokenKind::floating, start);
    token.bits = bits;
    token.f32 = f32;
    return token;
  }

  Token number(std::size_t start) {
    std::uint64_t value = 0;
    bool is_float = false;
    if (text_[at_] == '0' && at_ + 1 < text_.size() && (text_[at_ + 1] == 'x' || text_[at_ + 1] == 'X')) {
      at_ += 2;
      while (at_ < text_.size() && hex_digit(text_[at_]) >= 0)
        value = value << 4 | static_cast<std::uint64_t>(hex_digit(text_[at_++]));
    } else if (text_[at_] == '0' && at_ + 1 < text_.size() && (text_[at_ + 1] == 'b' || text_[at_ + 1] == 'B')) {
      at_ += 2;
      while (at_ < text_.size() && (text_[at_] == '0' || text_[at_] == '1'))
        value = value << 1 | static_cast<std::uint64_t>(text_[at_++] - '0');
    } else {
      const bool octal = text_[at_] == '0';
      while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_])))
        value = value * (octal ? 8 : 10) + static_cast<std::uint64_t>(text_[at_++] - '0');
      if (at_ < text_.size() && (text_[at_] == '.' || text_[at_] == 'e' || text_[at_] == 'E')) {
        // A decimal float literal (rare in NVVM output): read it with strtod.
        while (at_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[at_])) || text_[at_] == '.' ||
                                      text_[at_] == 'e' || text_[at_] == 'E' ||
                                      ((text_[at_] == '-' || text_[at_] == '+') &&
                                       (text_[at_ - 1] == 'e' || text_[at_ - 1] == 'E'))))
          ++at_;
        is_float = true;
      }
    }
    if (at_ < text_.size() && (text_[at_] == 'U' || text_[at_] == 'u')) ++at_;
    Token token = make(is_float ? TokenKind::floating : TokenKind::integer, start);
    if (is_float) {
      const double parsed = std::strtod(std::string(token.text).c_str(), nullptr);
      std::uint64_t bits;
      static_assert(sizeof(bits) == sizeof(parsed), "double must be 64 bits");
      __builtin_memcpy(&bits, &parsed, sizeof(bits));
      token.bits = bits;
    } else {
      token.bits = value;
    }
    return token;
  }

  std::string_view text_;
  std::size_t at_ = 0;
  int line_ = 1;
};

}  // namespace

std::vector<Token> tokenize(std::string_view text) { return Lexer(text).run(); }

}  // namespace pkb::ptx
