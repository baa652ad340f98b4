// syidl stage 1: the lexer. Turns one file's text into tokens (identifiers, literals,
// punctuators) with their locations. It knows nothing of directives beyond telling the
// preprocessor where lines start. May include diagnostics.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "idl_compiler/diagnostics.h"

namespace switchyard::idl {

enum class TokenKind : std::uint8_t {
  end_of_file,
  end_of_line,  // only from Lexer::next_on_line (directive lines)
  identifier,
  integer_literal,
  floating_literal,
  fixed_literal,
  char_literal,
  wide_char_literal,
  string_literal,
  wide_string_literal,
  punctuator,
  // Made by the preprocessor for the parser:
  pragma,      // text: "prefix", "version" or "ID"; arguments: the rest of the line
  file_begin,  // text: the file's name; entering an #include'd file
  file_end,    // leaving it
  invalid,     // a character that starts no token (already reported)
};

struct Token {
  TokenKind kind = TokenKind::end_of_file;
  std::string text;  // spelling; for string and char literals the decoded value (UTF-8)
  SourceLocation location;
  bool at_line_start = false;
  bool no_expand = false;        // preprocessor: a macro name met inside its own expansion
  std::vector<Token> arguments;  // pragma tokens only

  bool is(TokenKind k) const { return kind == k; }
  bool is_punct(std::string_view p) const { return kind == TokenKind::punctuator && text == p; }
  bool is_identifier(std::string_view id) const { return kind == TokenKind::identifier && text == id; }
};

class Lexer {
 public:
  // `file` is the SourceManager entry the locations name.
  Lexer(std::string_view text, std::uint32_t file, Diagnostics& diagnostics);

  // The next token; end_of_file at the end (repeatedly).
  Token next();
  // Like next(), but returns end_of_line (once) instead of crossing a newline.
  Token next_on_line();
  // Skips the rest of the current line, keeping the newline.
  void skip_line();
  // The raw rest of the line (for #error), trimmed.
  std::string rest_of_line();
  // For #include <name>: if the next non-blank character is '<', reads up to '>'.
  bool read_angle_header(std::string& name, SourceLocation& location);
  // While quiet, lexical errors are not reported (text skipped by #if 0 need not be IDL).
  void set_quiet(bool quiet) { quiet_ = quiet; }
  // #line: the next line is presumed to be `line` of SourceManager entry `file`.
  void set_presumed(std::uint32_t file, std::uint32_t next_line);
  std::uint32_t file() const { return file_; }
  // The character right after the last token (for `#define F(` versus `#define F (`).
  char current_char() const { return peek(); }
  std::uint32_t physical_line() const { return physical_line_; }

 private:
  Token lex(bool stop_at_newline);
  bool skip_blank(bool stop_at_newline);  // returns true when it stopped at a newline
  void lex_number(Token& token);
  void lex_quoted(Token& token, char quote);
  std::uint32_t lex_escape();
  void error(SourceLocation location, std::string message);
  SourceLocation here() const;
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }

  std::string_view text_;
  std::uint32_t file_;
  Diagnostics& diagnostics_;
  std::size_t pos_ = 0;
  std::size_t line_begin_ = 0;
  std::uint32_t physical_line_ = 1;
  std::int64_t line_delta_ = 0;  // presumed line minus physical line (#line)
  bool at_line_start_ = true;
  bool quiet_ = false;
};

// The value of an IDL integer literal (decimal, 0octal, 0xhex); false when malformed or when it
// does not fit in 64 bits.
bool parse_integer_literal(std::string_view text, std::uint64_t& value);

// Appends a code point as UTF-8.
void append_utf8(std::string& out, std::uint32_t code_point);

}  // namespace switchyard::idl
