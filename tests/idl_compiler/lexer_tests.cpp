#include "idl_compiler/lexer.h"

#include <catch2/catch.hpp>

#include "idl_test_support.h"

using namespace switchyard::idl;
using namespace switchyard::idl::testing;

TEST_CASE("lexer: identifiers, punctuators and locations", "[idl][lexer]") {
  SourceManager sources;
  Diagnostics diagnostics(sources);
  auto tokens = lex_all("module M {\n  ::A::B x; << >> a<b>\n};", diagnostics);
  REQUIRE(diagnostics.error_count() == 0);
  REQUIRE(tokens.size() == 17);
  CHECK(tokens[0].is_identifier("module"));
  CHECK(tokens[0].at_line_start);
  CHECK(tokens[2].is_punct("{"));
  CHECK(tokens[3].is_punct("::"));
  CHECK(tokens[3].location.line == 2);
  CHECK(tokens[3].location.column == 3);
  CHECK(tokens[3].at_line_start);
  CHECK(tokens[9].is_punct("<<"));
  CHECK(tokens[10].is_punct(">>"));
  CHECK(tokens[12].is_punct("<"));
}

TEST_CASE("lexer: numeric literals", "[idl][lexer]") {
  SourceManager sources;
  Diagnostics diagnostics(sources);
  auto tokens = lex_all("42 0x1F 017 1.5 2e10 .5 3.14d 7D 1.5e-3", diagnostics);
  REQUIRE(diagnostics.error_count() == 0);
  REQUIRE(tokens.size() == 9);
  CHECK(tokens[0].kind == TokenKind::integer_literal);
  CHECK(tokens[1].kind == TokenKind::integer_literal);
  CHECK(tokens[2].kind == TokenKind::integer_literal);
  CHECK(tokens[3].kind == TokenKind::floating_literal);
  CHECK(tokens[4].kind == TokenKind::floating_literal);
  CHECK(tokens[5].kind == TokenKind::floating_literal);
  CHECK(tokens[6].kind == TokenKind::fixed_literal);
  CHECK(tokens[7].kind == TokenKind::fixed_literal);
  CHECK(tokens[8].kind == TokenKind::floating_literal);
  CHECK(tokens[8].text == "1.5e-3");
  std::uint64_t v = 0;
  CHECK(parse_integer_literal("0x1F", v));
  CHECK(v == 31);
  CHECK(parse_integer_literal("017", v));
  CHECK(v == 15);
  CHECK(parse_integer_literal("18446744073709551615", v));
  CHECK(v == UINT64_MAX);
  CHECK_FALSE(parse_integer_literal("18446744073709551616", v));
  CHECK_FALSE(parse_integer_literal("09", v));
}

TEST_CASE("lexer: string and character literals with escapes", "[idl][lexer]") {
  SourceManager sources;
  Diagnostics diagnostics(sources);
  auto tokens = lex_all(R"("a\tb\x41\101" 'c' '\n' L"wide" L'\u00e9')", diagnostics);
  REQUIRE(diagnostics.error_count() == 0);
  REQUIRE(tokens.size() == 5);
  CHECK(tokens[0].kind == TokenKind::string_literal);
  CHECK(tokens[0].text == "a\tbAA");
  CHECK(tokens[1].kind == TokenKind::char_literal);
  CHECK(tokens[1].text == "c");
  CHECK(tokens[2].text == "\n");
  CHECK(tokens[3].kind == TokenKind::wide_string_literal);
  CHECK(tokens[4].kind == TokenKind::wide_char_literal);
  CHECK(tokens[4].text == "\xC3\xA9");
}

TEST_CASE("lexer: comments and line continuations are blanks", "[idl][lexer]") {
  SourceManager sources;
  Diagnostics diagnostics(sources);
  auto tokens = lex_all("a // one\n/* two\n three */ b \\\n c", diagnostics);
  REQUIRE(diagnostics.error_count() == 0);
  REQUIRE(tokens.size() == 3);
  CHECK(tokens[1].is_identifier("b"));
  CHECK(tokens[1].location.line == 3);
  CHECK_FALSE(tokens[2].at_line_start);  // joined to the line before
}

TEST_CASE("lexer: malformed input is reported, never fatal", "[idl][lexer]") {
  SourceManager sources;
  Diagnostics diagnostics(sources);
  lex_all("\"open", diagnostics);
  lex_all("/* never closed", diagnostics);
  lex_all("@ $", diagnostics);
  lex_all("'ab' ''", diagnostics);
  lex_all("0x 1e 08", diagnostics);
  lex_all(std::string("a\0b", 3), diagnostics);
  REQUIRE(diagnostics.diagnostics().size() >= 8);
  CHECK(diagnostics.diagnostics()[0].message == "unterminated string literal");
  CHECK(diagnostics.diagnostics()[1].message == "unterminated comment");
  CHECK(diagnostics.diagnostics()[2].message == "unexpected character '@'");
}

TEST_CASE("lexer: quiet mode reports nothing", "[idl][lexer]") {
  SourceManager sources;
  Diagnostics diagnostics(sources);
  Lexer lexer("don't \"open", 1, diagnostics);
  lexer.set_quiet(true);
  while (!lexer.next().is(TokenKind::end_of_file)) {
  }
  CHECK(diagnostics.error_count() == 0);
}
