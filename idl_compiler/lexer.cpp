#include "idl_compiler/lexer.h"

#include <cctype>
#include <cstdint>

namespace switchyard::idl {

namespace {
bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

bool parse_integer_literal(std::string_view text, std::uint64_t& value) {
  value = 0;
  if (text.empty()) return false;
  std::size_t i = 0;
  unsigned base = 10;
  if (text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    i = 2;
    if (text.size() == 2) return false;
  } else if (text.size() > 1 && text[0] == '0') {
    base = 8;
    i = 1;
  }
  for (; i < text.size(); ++i) {
    const int digit = hex_value(text[i]);
    if (digit < 0 || static_cast<unsigned>(digit) >= base) return false;
    if (value > (UINT64_MAX - static_cast<unsigned>(digit)) / base) return false;
    value = value * base + static_cast<unsigned>(digit);
  }
  return true;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | ((cp >> 18) & 0x07));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

Lexer::Lexer(std::string_view text, std::uint32_t file, Diagnostics& diagnostics)
    : text_(text), file_(file), diagnostics_(diagnostics) {}

void Lexer::set_presumed(std::uint32_t file, std::uint32_t next_line) {
  file_ = file;
  line_delta_ = static_cast<std::int64_t>(next_line) - (static_cast<std::int64_t>(physical_line_) + 1);
}

SourceLocation Lexer::here() const {
  const std::int64_t line = static_cast<std::int64_t>(physical_line_) + line_delta_;
  return SourceLocation{file_, static_cast<std::uint32_t>(line < 1 ? 1 : line),
                        static_cast<std::uint32_t>(pos_ - line_begin_ + 1)};
}

void Lexer::error(SourceLocation location, std::string message) {
  if (!quiet_) diagnostics_.error(location, std::move(message));
}

bool Lexer::skip_blank(bool stop_at_newline) {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == '\n') {
      if (stop_at_newline) return true;
      ++pos_;
      ++physical_line_;
      line_begin_ = pos_;
      at_line_start_ = true;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++pos_;
    } else if (c == '\\' && (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n'))) {
      pos_ += peek(1) == '\n' ? 2 : 3;  // line continuation: joins lines, starts none
      ++physical_line_;
      line_begin_ = pos_;
    } else if (c == '/' && peek(1) == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    } else if (c == '/' && peek(1) == '*') {
      const SourceLocation start = here();
      pos_ += 2;
      bool closed = false;
      while (pos_ < text_.size()) {
        if (text_[pos_] == '*' && peek(1) == '/') {
          pos_ += 2;
          closed = true;
          break;
        }
        if (text_[pos_] == '\n') {
          ++physical_line_;
          line_begin_ = pos_ + 1;
        }
        ++pos_;
      }
      if (!closed) error(start, "unterminated comment");
    } else {
      break;
    }
  }
  return false;
}

Token Lexer::next() { return lex(false); }
Token Lexer::next_on_line() { return lex(true); }

void Lexer::skip_line() {
  while (pos_ < text_.size() && text_[pos_] != '\n') {
    if (text_[pos_] == '\\' && peek(1) == '\n') {
      pos_ += 2;
      ++physical_line_;
      line_begin_ = pos_;
      continue;
    }
    ++pos_;
  }
}

std::string Lexer::rest_of_line() {
  const std::size_t begin = pos_;
  skip_line();
  std::string line(text_.substr(begin, pos_ - begin));
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
  std::size_t first = 0;
  while (first < line.size() && std::isspace(static_cast<unsigned char>(line[first]))) ++first;
  return line.substr(first);
}

bool Lexer::read_angle_header(std::string& name, SourceLocation& location) {
  while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  if (peek() != '<') return false;
  location = here();
  std::size_t end = pos_ + 1;
  while (end < text_.size() && text_[end] != '>' && text_[end] != '\n') ++end;
  if (end >= text_.size() || text_[end] != '>') return false;
  name = std::string(text_.substr(pos_ + 1, end - pos_ - 1));
  pos_ = end + 1;
  return true;
}

Token Lexer::lex(bool stop_at_newline) {
  Token token;
  if (skip_blank(stop_at_newline)) {
    token.kind = TokenKind::end_of_line;
    token.location = here();
    return token;
  }
  token.location = here();
  token.at_line_start = at_line_start_;
  at_line_start_ = false;
  if (pos_ >= text_.size()) {
    token.kind = TokenKind::end_of_file;
    return token;
  }
  const char c = text_[pos_];
  if ((c == 'L') && (peek(1) == '"' || peek(1) == '\'')) {
    ++pos_;
    lex_quoted(token, text_[pos_]);
    token.kind =
        token.kind == TokenKind::string_literal ? TokenKind::wide_string_literal : TokenKind::wide_char_literal;
    return token;
  }
  if (is_ident_start(c)) {
    const std::size_t begin = pos_;
    while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
    token.kind = TokenKind::identifier;
    token.text = std::string(text_.substr(begin, pos_ - begin));
    return token;
  }
  if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
    lex_number(token);
    return token;
  }
  if (c == '"' || c == '\'') {
    lex_quoted(token, c);
    return token;
  }
  static constexpr std::string_view two_char[] = {"::", "<<", ">>", "##", "&&", "||", "==", "!=", "<=", ">="};
  for (std::string_view p : two_char) {
    if (text_.substr(pos_, 2) == p) {
      pos_ += 2;
      token.kind = TokenKind::punctuator;
      token.text = std::string(p);
      return token;
    }
  }
  static constexpr std::string_view one_char = ";{}()<>[],:=+-*/%~|^&#!?.";
  if (one_char.find(c) != std::string_view::npos) {
    ++pos_;
    token.kind = TokenKind::punctuator;
    token.text = std::string(1, c);
    return token;
  }
  ++pos_;
  token.kind = TokenKind::invalid;
  token.text = std::string(1, c);
  const unsigned char uc = static_cast<unsigned char>(c);
  if (std::isprint(uc)) {
    error(token.location, std::string("unexpected character '") + c + "'");
  } else {
    static const char digits[] = "0123456789abcdef";
    error(token.location, std::string("unexpected character 0x") + digits[uc >> 4] + digits[uc & 15]);
  }
  return token;
}

void Lexer::lex_number(Token& token) {
  // Scan a preprocessing number, then classify: integer, floating or fixed-point.
  const std::size_t begin = pos_;
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if ((c == 'e' || c == 'E') && (peek(1) == '+' || peek(1) == '-') &&
        !(text_.substr(begin, 2) == "0x" || text_.substr(begin, 2) == "0X")) {
      pos_ += 2;
    } else if (is_ident_char(c) || c == '.') {
      ++pos_;
    } else {
      break;
    }
  }
  token.text = std::string(text_.substr(begin, pos_ - begin));
  const std::string& t = token.text;
  const bool hex = t.size() > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
  if (hex) {
    token.kind = TokenKind::integer_literal;
    bool ok = t.size() > 2;
    for (std::size_t i = 2; i < t.size(); ++i) ok = ok && hex_value(t[i]) >= 0;
    if (!ok) error(token.location, "invalid hexadecimal literal '" + t + "'");
    return;
  }
  if (t.back() == 'd' || t.back() == 'D') {
    token.kind = TokenKind::fixed_literal;
    bool ok = true, dot = false;
    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
      if (t[i] == '.' && !dot) dot = true;
      else ok = ok && is_digit(t[i]);
    }
    if (!ok) error(token.location, "invalid fixed-point literal '" + t + "'");
    return;
  }
  bool is_float = false, ok = true, dot = false, exponent = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (is_digit(c)) continue;
    if (c == '.' && !dot && !exponent) {
      dot = is_float = true;
    } else if ((c == 'e' || c == 'E') && !exponent) {
      exponent = is_float = true;
      if (i + 1 < t.size() && (t[i + 1] == '+' || t[i + 1] == '-')) ++i;
      if (i + 1 >= t.size()) ok = false;
    } else {
      ok = false;
    }
  }
  token.kind = is_float ? TokenKind::floating_literal : TokenKind::integer_literal;
  if (!is_float && t.size() > 1 && t[0] == '0') {
    for (char c : t) ok = ok && c >= '0' && c <= '7';
  }
  if (!ok) error(token.location, "invalid numeric literal '" + t + "'");
}

std::uint32_t Lexer::lex_escape() {
  // At the character after the backslash.
  const char c = peek();
  ++pos_;
  switch (c) {
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'v':
      return '\v';
    case 'b':
      return '\b';
    case 'r':
      return '\r';
    case 'f':
      return '\f';
    case 'a':
      return '\a';
    case '\\':
      return '\\';
    case '?':
      return '?';
    case '\'':
      return '\'';
    case '"':
      return '"';
    case 'x':
    case 'u': {
      const int max_digits = c == 'x' ? 2 : 4;
      std::uint32_t value = 0;
      int n = 0;
      while (n < max_digits && hex_value(peek()) >= 0) {
        value = value * 16 + static_cast<std::uint32_t>(hex_value(peek()));
        ++pos_;
        ++n;
      }
      if (n == 0) error(here(), std::string("\\") + c + " escape has no hexadecimal digits");
      return value;
    }
    default:
      if (c >= '0' && c <= '7') {
        std::uint32_t value = static_cast<std::uint32_t>(c - '0');
        for (int n = 1; n < 3 && peek() >= '0' && peek() <= '7'; ++n, ++pos_)
          value = value * 8 + static_cast<std::uint32_t>(peek() - '0');
        return value;
      }
      error(here(), std::string("unknown escape sequence '\\") + c + "'");
      return static_cast<unsigned char>(c);
  }
}

void Lexer::lex_quoted(Token& token, char quote) {
  const bool is_string = quote == '"';
  token.kind = is_string ? TokenKind::string_literal : TokenKind::char_literal;
  ++pos_;
  std::string value;
  std::size_t count = 0;
  while (true) {
    if (pos_ >= text_.size() || text_[pos_] == '\n') {
      error(token.location, is_string ? "unterminated string literal" : "unterminated character literal");
      break;
    }
    const char c = text_[pos_];
    if (c == quote) {
      ++pos_;
      break;
    }
    std::uint32_t code_point;
    if (c == '\\') {
      ++pos_;
      code_point = lex_escape();
    } else {
      code_point = static_cast<unsigned char>(c);
      ++pos_;
    }
    ++count;
    if (code_point == 0 && is_string) error(token.location, "string literal contains a NUL character");
    if (code_point < 0x100 && static_cast<unsigned char>(c) >= 0x80 && c != '\\')
      value += static_cast<char>(code_point);  // raw bytes of UTF-8 text stay as they are
    else append_utf8(value, code_point);
  }
  if (!is_string && count != 1 && pos_ <= text_.size())
    if (count == 0 || (value.size() > 0 && static_cast<unsigned char>(value[0]) < 0x80))
      error(token.location, count == 0 ? "empty character literal" : "character literal has more than one character");
  token.text = std::move(value);
}

}  // namespace switchyard::idl
