#include "idl_compiler/preprocessor.h"

#include <catch2/catch.hpp>

#include "idl_test_support.h"

using namespace switchyard::idl;
using namespace switchyard::idl::testing;

TEST_CASE("preprocessor: object-like and function-like macros", "[idl][preprocessor]") {
  auto p = preprocess(
      "#define N 10\n"
      "#define MAX(a, b) ((a) > (b) ? (a) : (b))\n"
      "#define STR(x) #x\n"
      "#define CAT(a, b) a ## b\n"
      "#define EMPTY()\n"
      "N MAX(N, 2) STR(hello world) CAT(foo, bar) EMPTY() end\n");
  REQUIRE(p.diagnostics->error_count() == 0);
  CHECK(p.spelling() == "10 ( ( 10 ) > ( 2 ) ? ( 10 ) : ( 2 ) ) \"hello world\" foobar end");
}

TEST_CASE("preprocessor: a function-like macro name without '(' stays a name", "[idl][preprocessor]") {
  auto p = preprocess("#define F(x) x\nF ; F(1)\n");
  REQUIRE(p.diagnostics->error_count() == 0);
  CHECK(p.spelling() == "F ; 1");
}

TEST_CASE("preprocessor: self-reference does not recurse", "[idl][preprocessor]") {
  auto p = preprocess("#define foo foo bar\n#define a b\n#define b a\nfoo a\n");
  REQUIRE(p.diagnostics->error_count() == 0);
  CHECK(p.spelling() == "foo bar a");
}

TEST_CASE("preprocessor: conditionals", "[idl][preprocessor]") {
  auto p = preprocess(
      "#define V 3\n"
      "#if V * 2 == 6 && defined(V) && !defined UNDEFINED\n yes1\n#else\n no1\n#endif\n"
      "#if V > 5\n no2\n#elif V > 2\n yes2\n#elif 1\n no3\n#else\n no4\n#endif\n"
      "#ifdef V\n#ifndef V\n no5\n#else\n yes3\n#endif\n#endif\n"
      "#if 0\n don't 'care \" about #bogus text\n#if 1\n no6\n#endif\n#endif\n"
      "#undef V\n#ifdef V\n no7\n#endif\n"
      "#if (1 << 4) + 0x10 - 017 == 17 && -1 < 0 && 7 % 4 == 3 && (2 ? 1 : 0)\n yes4\n#endif\n");
  REQUIRE(p.diagnostics->error_count() == 0);
  CHECK(p.spelling() == "yes1 yes2 yes3 yes4");
}

TEST_CASE("preprocessor: bad conditionals are reported", "[idl][preprocessor]") {
  CHECK(preprocess("#if 1 / 0\n#endif\n").diagnostics->diagnostics()[0].message ==
        "division by zero in #if expression");
  CHECK(preprocess("#if 1\nx\n").diagnostics->diagnostics()[0].message ==
        "unterminated conditional directive (#if without #endif)");
  CHECK(preprocess("#endif\n").diagnostics->diagnostics()[0].message == "#endif without #if");
  CHECK(preprocess("#if 1\n#else\n#else\n#endif\n").diagnostics->diagnostics()[0].message == "#else after #else");
  CHECK(preprocess("#if (1\n#endif\n").diagnostics->diagnostics()[0].message == "missing ')' in #if expression");
  CHECK(preprocess("#bogus\n").diagnostics->diagnostics()[0].message == "unknown preprocessor directive '#bogus'");
  CHECK(preprocess("#error stop here\n").diagnostics->diagnostics()[0].message == "#error stop here");
}

TEST_CASE("preprocessor: #include with quotes, angle brackets and guards", "[idl][preprocessor]") {
  PreprocessorOptions options;
  options.include_dirs = {"inc"};
  auto p =
      preprocess("#include \"local.idl\"\n#include <sys.idl>\n#include \"local.idl\"\nend\n",
                 {{"local.idl", "#ifndef LOCAL\n#define LOCAL\nlocal\n#endif\n"}, {"inc/sys.idl", "sys\n"}}, options);
  REQUIRE(p.diagnostics->error_count() == 0);
  CHECK(p.spelling() == "local sys end");
  // Markers tell the parser where each file begins and ends.
  std::size_t begins = 0, ends = 0;
  for (const Token& t : p.tokens) {
    begins += t.is(TokenKind::file_begin) ? 1 : 0;
    ends += t.is(TokenKind::file_end) ? 1 : 0;
  }
  CHECK(begins == 3);
  CHECK(ends == 3);
}

TEST_CASE("preprocessor: <...> does not search the including file's directory", "[idl][preprocessor]") {
  auto p = preprocess("#include <local.idl>\n", {{"local.idl", "x\n"}});
  REQUIRE(p.diagnostics->error_count() == 1);
  CHECK(p.diagnostics->diagnostics()[0].message == "cannot find include file 'local.idl'");
}

TEST_CASE("preprocessor: include cycles and depth are bounded", "[idl][preprocessor]") {
  auto cycle =
      preprocess("#include \"a.idl\"\n", {{"a.idl", "#include \"b.idl\"\n"}, {"b.idl", "#include \"a.idl\"\n"}});
  REQUIRE(cycle.diagnostics->error_count() == 1);
  CHECK(cycle.diagnostics->diagnostics()[0].message == "#include cycle: 'a.idl' includes itself");

  auto self = preprocess("#include \"main.idl\"\n");
  CHECK(self.diagnostics->error_count() == 1);

  // A guarded cycle is fine, as with any C preprocessor.
  auto guarded =
      preprocess("#include \"g.idl\"\n", {{"g.idl", "#ifndef G\n#define G\n#include \"g.idl\"\ng\n#endif\n"}});
  CHECK(guarded.diagnostics->error_count() == 0);
  CHECK(guarded.spelling() == "g");

  // Different files nested past the limit.
  std::map<std::string, std::string> chain;
  for (int i = 0; i < 80; ++i)
    chain["f" + std::to_string(i) + ".idl"] = "#include \"f" + std::to_string(i + 1) + ".idl\"\n";
  chain["f80.idl"] = "deep\n";
  auto deep = preprocess("#include \"f0.idl\"\n", chain);
  REQUIRE(deep.diagnostics->error_count() == 1);
  CHECK(deep.diagnostics->diagnostics()[0].message == "#include nested too deeply (more than 64 levels)");
}

TEST_CASE("preprocessor: macro expansion is bounded", "[idl][preprocessor]") {
  std::string text;
  // Each level doubles: 2^40 tokens if nothing stopped it.
  text += "#define L0 x x\n";
  for (int i = 1; i <= 40; ++i)
    text += "#define L" + std::to_string(i) + " L" + std::to_string(i - 1) + " L" + std::to_string(i - 1) + "\n";
  text += "L40\n";
  auto p = preprocess(text);
  CHECK(p.diagnostics->error_count() == 1);
  CHECK(p.diagnostics->diagnostics()[0].message.find("macro expansion limit exceeded") == 0);
}

TEST_CASE("preprocessor: nested arguments that double are bounded too", "[idl][preprocessor]") {
  std::string call = "1";
  for (int i = 0; i < 40; ++i) call = "F(" + call + ")";
  auto p = preprocess("#define F(x) x x\n" + call + "\n");
  CHECK(p.diagnostics->error_count() == 1);
  CHECK(p.tokens.size() < 3000000);
}

TEST_CASE("preprocessor: pragmas become marker tokens; others are ignored", "[idl][preprocessor]") {
  auto p = preprocess(
      "#pragma prefix \"omg.org\"\n#pragma version A 1.2\n#pragma ID A \"IDL:x:1.0\"\n"
      "#pragma hh #include \"COS_sysdep.h\"\n#pragma once\nend\n");
  REQUIRE(p.diagnostics->error_count() == 0);
  REQUIRE(p.tokens.size() == 4);
  CHECK(p.tokens[0].is(TokenKind::pragma));
  CHECK(p.tokens[0].text == "prefix");
  REQUIRE(p.tokens[0].arguments.size() == 1);
  CHECK(p.tokens[0].arguments[0].text == "omg.org");
  CHECK(p.tokens[1].text == "version");
  CHECK(p.tokens[2].text == "ID");
  CHECK(p.tokens[3].is_identifier("end"));
}

TEST_CASE("preprocessor: -D definitions and #line", "[idl][preprocessor]") {
  PreprocessorOptions options;
  options.defines = {{"SIZE", "16"}, {"FLAG", "1"}};
  auto p = preprocess("#if FLAG\nSIZE\n#endif\n#line 100 \"renamed.idl\"\nhere\n", {}, options);
  REQUIRE(p.diagnostics->error_count() == 0);
  REQUIRE(p.tokens.size() == 2);
  CHECK(p.tokens[0].text == "16");
  CHECK(p.tokens[1].location.line == 100);
  CHECK(p.sources->name(p.tokens[1].location.file) == "renamed.idl");
  // The caret still shows the real line.
  CHECK(p.sources->line_text(p.tokens[1].location) == "here");
}

TEST_CASE("preprocessor: wrong macro calls are reported", "[idl][preprocessor]") {
  CHECK(preprocess("#define F(a, b) a b\nF(1)\n").diagnostics->diagnostics()[0].message ==
        "macro 'F' expects 2 arguments, got 1");
  CHECK(preprocess("#define F(a) a\nF(1\n").diagnostics->diagnostics()[0].message == "unterminated call of macro 'F'");
  CHECK(preprocess("#define 1\n").diagnostics->diagnostics()[0].message == "macro name must be an identifier");
  CHECK(preprocess("#define F(a,) a\n").diagnostics->diagnostics()[0].message ==
        "invalid parameter list in definition of macro 'F'");
}
