#include "idl_compiler/diagnostics.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "idl_test_support.h"

using namespace switchyard::idl;
using namespace switchyard::idl::testing;

TEST_CASE("diagnostics: file:line:column, the source line and a caret", "[idl][diagnostics]") {
  auto c = compile("module M {\n  typedef Undefined T;\n};\n");
  REQUIRE(c.errors() == 1);
  CHECK(c.text() ==
        "main.idl:2:11: error: undefined name 'Undefined'\n"
        "  typedef Undefined T;\n"
        "          ^\n");
}

TEST_CASE("diagnostics: tabs are kept so the caret lines up", "[idl][diagnostics]") {
  auto c = compile("\ttypedef\tNope T;\n");
  CHECK(c.text() ==
        "main.idl:1:10: error: undefined name 'Nope'\n"
        "\ttypedef\tNope T;\n"
        "\t       \t^\n");
}

TEST_CASE("diagnostics: notes follow their error", "[idl][diagnostics]") {
  auto c = compile("struct S { long a; };\nstruct s { long b; };\n");
  CHECK(c.text() ==
        "main.idl:2:8: error: 's' clashes with 'S' (IDL names that differ only in case are the "
        "same name)\n"
        "struct s { long b; };\n"
        "       ^\n"
        "main.idl:1:8: note: 'S' is declared here\n"
        "struct S { long a; };\n"
        "       ^\n");
}

TEST_CASE("diagnostics: errors in included files name that file", "[idl][diagnostics]") {
  auto c = compile("#include \"inc/x.idl\"\n", {{"inc/x.idl", "const long c = 'a';\n"}});
  CHECK(c.text() ==
        "inc/x.idl:1:16: error: expected an integer for a constant of type 'long', found a "
        "character\n"
        "const long c = 'a';\n"
        "               ^\n");
}

TEST_CASE("diagnostics: no location gives a plain line", "[idl][diagnostics]") {
  SourceManager sources;
  Diagnostics d(sources);
  d.error(SourceLocation{}, "cannot read 'x.idl'");
  CHECK(d.format(d.diagnostics()[0]) == "syidl: error: cannot read 'x.idl'\n");
}

TEST_CASE("diagnostics: printing stops after many errors, counting does not", "[idl][diagnostics]") {
  SourceManager sources;
  std::ostringstream out;
  Diagnostics d(sources, &out);
  for (int i = 0; i < 200; ++i) d.error(SourceLocation{}, "e");
  CHECK(d.error_count() == 200);
  CHECK(out.str().find("too many errors") != std::string::npos);
  CHECK(out.str().size() < 2000);
}
