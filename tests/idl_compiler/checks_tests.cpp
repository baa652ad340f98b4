#include "idl_compiler/checks.h"

#include <catch2/catch.hpp>

#include "idl_test_support.h"

using namespace switchyard::idl;
using namespace switchyard::idl::testing;

namespace {
std::string error_of(const std::string& idl) {
  auto c = compile(idl);
  return c.errors() == 1 ? c.first_error() : "(" + std::to_string(c.errors()) + " errors) " + c.text();
}
const Constant& constant(const Compiled& c, std::size_t i) {
  return static_cast<const Constant&>(*c.specification->root.definitions.at(i));
}
}  // namespace

TEST_CASE("checks: names are case-insensitive for clashes, exact for uses", "[idl][checks]") {
  CHECK(error_of("typedef long Foo; typedef short foo;") ==
        "'foo' clashes with 'Foo' (IDL names that differ only in case are the same name)");
  CHECK(error_of("typedef long Foo; typedef foo Bar;") ==
        "'foo' does not match the case of 'Foo' (IDL names that differ only in case are the "
        "same name)");
  CHECK(error_of("module M { typedef long T; }; typedef M::t X;") ==
        "'t' does not match the case of 'T' (IDL names that differ only in case are the same "
        "name)");
  CHECK(error_of("interface I { void op(in long a, in short A); };") ==
        "parameter 'A' clashes with 'a' (IDL names that differ only in case are the same name)");
  CHECK(error_of("enum E { red, Red };") ==
        "'Red' clashes with 'red' (IDL names that differ only in case are the same name)");
}

TEST_CASE("checks: undefined names and redefinitions", "[idl][checks]") {
  CHECK(error_of("typedef Nope T;") == "undefined name 'Nope'");
  CHECK(error_of("module M {}; typedef M::Nope T;") == "'Nope' is not declared in 'M'");
  CHECK(error_of("typedef long T; typedef T::X Y;") == "'T' is not a scope, so 'T::X' names nothing");
  CHECK(error_of("struct S { long a; }; struct S { long b; };") == "redefinition of 'S'");
  CHECK(error_of("const long C = 1; typedef C T;") == "'C' is not a type (it is a const)");
  CHECK(error_of("struct S { long S; };") == "'S' clashes with the name of its enclosing scope 'S'");
  CHECK(error_of("interface F { void f(); };") == "'f' clashes with the name of its enclosing scope 'F'");
  CHECK(error_of("module M { typedef long m; };") == "'m' clashes with the name of its enclosing scope 'M'");
  CHECK(error_of("interface I { void a(); void a(); };") == "redefinition of 'a'");
}

TEST_CASE("checks: modules reopen, forward declarations complete", "[idl][checks]") {
  auto c = compile(R"(
    module M { interface F; struct S; typedef sequence<S> SSeq; };
    module M { interface F { void op(); }; struct S { long a; SSeq more; }; };
    module M { interface G : F {}; typedef ::M::S T; };
  )");
  CHECK(c.errors() == 0);
  CHECK(c.text().empty());
}

TEST_CASE("checks: inheritance rules", "[idl][checks]") {
  CHECK(error_of("interface F; interface I : F {};") ==
        "interface 'I' cannot inherit from 'F', which is only forward-declared at this point");
  CHECK(error_of("interface I : Nope {};") == "undefined name 'Nope'");
  CHECK(error_of("struct S { long a; }; interface I : S {};") == "'S' is not an interface (it is a struct)");
  CHECK(error_of("interface A {}; interface I : A, A {};") == "'A' appears twice in the bases of 'I'");
  CHECK(error_of("interface A {}; abstract interface I : A {};") ==
        "abstract interface 'I' cannot inherit from non-abstract interface 'A'");
  CHECK(error_of("local interface L {}; interface I : L {};") ==
        "interface 'I' must be local to inherit from local interface 'L'");
  CHECK(error_of("interface A { void f(); }; interface B { void f(); }; interface C : A, B {};") ==
        "interface 'C' inherits 'f' from both 'A' and 'B'");
  CHECK(error_of("interface A { void f(); }; interface B : A { void f(); };") ==
        "operation 'f' clashes with 'f' inherited from 'A'");
  CHECK(error_of("interface A { attribute long x; }; interface B : A { void X(); };") ==
        "operation 'X' clashes with 'x' inherited from 'A'");
  // The same operation reached twice (a diamond) is fine.
  CHECK(compile("interface A { void f(); }; interface B : A {}; interface C : A {}; "
                "interface D : B, C {};")
            .errors() == 0);
  // Names are found through bases.
  CHECK(compile("interface A { typedef long T; }; interface B : A { T get(); };").errors() == 0);
}

TEST_CASE("checks: recursion only through sequences", "[idl][checks]") {
  CHECK(error_of("struct S { long a; S next; };") ==
        "'S' is used recursively; a struct can contain itself only through a sequence");
  CHECK(error_of("union U switch (long) { case 1: U next; };") ==
        "'U' is used recursively; a union can contain itself only through a sequence");
  CHECK(error_of("struct S; struct T { S x; };") ==
        "'S' is only forward-declared here; it can be used only as the element type of a "
        "sequence until it is defined");
  CHECK(compile("struct S { long a; sequence<S> next; };").errors() == 0);
  CHECK(compile("struct S; typedef sequence<S> Ss; struct S { Ss children; };").errors() == 0);
}

TEST_CASE("checks: constant values, types and ranges", "[idl][checks]") {
  auto c = compile(R"(
    const long a = (1 + 2) * 3 - 4 / 2 % 3;
    const unsigned long mask = ~0;
    const short neg = ~0;
    const long long shifts = (1 << 40) >> 8 | 0x0F ^ 0x3 & 0x6;
    const double d = 1.5 * 2 + 0.25;
    const string s = "ab" "cd";
    const char ch = 'x';
    const boolean yes = TRUE;
    enum Color { red, green };
    const Color col = green;
    const octet o = 255;
    const fixed f = 1.25d + 2.5d;
    const long from_constant = a * 2;
    const unsigned long long max = 18446744073709551615;
    const long long min = -9223372036854775807 - 1;
    typedef string<3> Small;
    const Small abc = "abc";
    const wchar wc = L'\u00e9';
    const float tiny = 1.5e3;
  )");
  REQUIRE(c.errors() == 0);
  CHECK(constant(c, 0).value.signed_integer == 7);
  CHECK(constant(c, 1).value.unsigned_integer == 4294967295u);
  CHECK(constant(c, 2).value.signed_integer == -1);
  CHECK(constant(c, 3).value.signed_integer == ((1LL << 40) >> 8 | (0x0F ^ (0x3 & 0x6))));
  CHECK(constant(c, 4).value.floating == 3.25L);
  CHECK(constant(c, 5).value.text == "abcd");
  CHECK(constant(c, 6).value.character == 'x');
  CHECK(constant(c, 7).value.boolean);
  CHECK(constant(c, 9).value.enumerator->name == "green");
  CHECK(constant(c, 10).value.unsigned_integer == 255);
  CHECK(constant(c, 11).value.floating == 3.75L);
  CHECK(constant(c, 12).value.signed_integer == 14);
  CHECK(constant(c, 13).value.unsigned_integer == UINT64_MAX);
  CHECK(constant(c, 14).value.signed_integer == INT64_MIN);
  CHECK(constant(c, 17).value.character == 0xE9);
}

TEST_CASE("checks: wrong constants", "[idl][checks]") {
  CHECK(error_of("const octet o = 256;") == "value 256 is out of range for type 'octet' (0..255)");
  CHECK(error_of("const short s = 40000;") == "value 40000 is out of range for type 'short' (-32768..32767)");
  CHECK(error_of("const unsigned long u = -1;") == "value -1 is out of range for type 'unsigned long' (0..4294967295)");
  CHECK(error_of("const long l = \"x\";") == "expected an integer for a constant of type 'long', found a string");
  CHECK(error_of("const string s = 1;") == "expected a string for a constant of type 'string', found an integer");
  CHECK(error_of("const boolean b = 1;") == "expected a boolean for a constant of type 'boolean', found an integer");
  CHECK(error_of("const long l = 1.5;") ==
        "expected an integer for a constant of type 'long', found a floating-point value");
  CHECK(error_of("const long l = 1 / 0;") == "division by zero in constant expression");
  CHECK(error_of("const long long l = 1 << 64;") == "shift count 64 is outside 0..63");
  CHECK(error_of("const unsigned long long l = 18446744073709551615 + 1;") == "constant expression overflows");
  CHECK(error_of("const double d = 1.0 % 2.0;") == "operator '%' cannot be applied to a floating-point value");
  CHECK(error_of("const boolean b = ~TRUE;") == "operator '~' cannot be applied to a boolean");
  CHECK(error_of("typedef string<2> S; const S text = \"abc\";") ==
        "string of 3 characters exceeds the bound 2 of type 'string'");
  CHECK(error_of("enum A { x }; enum B { y }; const A value = y;") == "'y' is not an enumerator of 'A'");
  CHECK(error_of("const float f = 1e300;") == "value is out of range for type 'float'");
  CHECK(error_of("interface I {}; const I value = 1;") == "a constant cannot have type 'I'");
  CHECK(error_of("const long a = b;") == "undefined name 'b'");
  CHECK(error_of("typedef sequence<long, 0> S;") == "the bound must be a positive integer, not 0");
  CHECK(error_of("typedef long A[0];") == "the array dimension must be a positive integer, not 0");
  CHECK(error_of("typedef fixed<40, 2> F;") == "fixed-point types have at most 31 digits, not 40");
  CHECK(error_of("typedef fixed<5, 6> F;") == "the scale 6 of a fixed-point type exceeds its 5 digits");
}

TEST_CASE("checks: unions", "[idl][checks]") {
  auto ok = compile(R"(
    enum E { a, b, c };
    union U1 switch (E) { case a: long x; case b: case c: short y; };
    union U2 switch (boolean) { case TRUE: long x; case FALSE: short y; };
    union U3 switch (char) { case 'a': long x; default: short y; };
    typedef unsigned short Disc;
    union U4 switch (Disc) { case 1: case 2: long x; case 3: string s; default: octet o; };
    union U5 switch (long long) { case -1: long x; };
    union U6 switch (wchar) { case L'x': long x; };
    union U7 switch (octet) { case 255: long x; };
  )");
  CHECK(ok.errors() == 0);
  CHECK(error_of("union U switch (long) { case 1: long a; case 1: long b; };") ==
        "duplicate case label 1 in union 'U'");
  CHECK(error_of("union U switch (long) { default: long a; default: long b; };") ==
        "union 'U' has more than one default label");
  CHECK(error_of("union U switch (double) { case 1: long a; };") ==
        "the discriminator of union 'U' must be an integer, char, wchar, boolean, octet or enum type");
  CHECK(error_of("union U switch (short) { case 70000: long a; };") ==
        "value 70000 is out of range for type 'short' (-32768..32767)");
  CHECK(error_of("enum E { a }; enum F { b }; union U switch (E) { case b: long x; };") ==
        "'b' is not an enumerator of 'E'");
  CHECK(error_of("union U switch (boolean) { case TRUE: long a; case FALSE: long b; default: long c; };") ==
        "union 'U' has a default label, but its cases already cover every value of the discriminator");
  CHECK(error_of("union U switch (long) { case 1: long a; case 2: short a; };") == "redefinition of 'a'");
  CHECK(error_of("union U switch (char) { case 1: long a; };") ==
        "expected a character for a constant of type 'char', found an integer");
}

TEST_CASE("checks: operations and attributes", "[idl][checks]") {
  CHECK(error_of("interface I { oneway long f(); };") == "oneway operation 'f' must return void");
  CHECK(error_of("interface I { oneway void f(out long x); };") ==
        "oneway operation 'f' can have only 'in' parameters");
  CHECK(error_of("exception E {}; interface I { oneway void f() raises (E); };") ==
        "oneway operation 'f' cannot raise user exceptions");
  CHECK(error_of("struct S { long a; }; interface I { void f() raises (S); };") == "'S' is not an exception");
  CHECK(error_of("interface I { attribute long a getraises (Nope); };") == "undefined name 'Nope'");
  CHECK(error_of("interface I { void f() context (\"1bad\"); };") == "'1bad' is not a valid context name");
  CHECK(error_of("exception E { long a; }; typedef E T;") == "'E' is not a type (it is a exception)");
}

TEST_CASE("checks: custom valuetypes are rejected only where a back end would need them", "[idl][checks]") {
  const std::string idl = "custom valuetype V { public long a; }; interface I { V get(); };";
  FrontEndOptions generating;
  generating.checks.generating = true;
  auto rejected = compile(idl, {}, generating);
  REQUIRE(rejected.errors() == 2);
  CHECK(rejected.first_error() == "custom valuetypes are not supported: V (custom marshaling)");
  CHECK(rejected.diagnostics->diagnostics()[1].message == "custom valuetypes are not supported: V (custom marshaling)");
  // Without a back end (plain checking, like omniidl without -b): warnings only.
  auto checked = compile(idl);
  CHECK(checked.errors() == 0);
  CHECK(checked.warnings() == 2);
  // In an included file and unused by the main file: nothing to say, even when generating.
  auto included = compile("#include \"values.idl\"\ninterface J { long f(); };", {{"values.idl", idl}}, generating);
  CHECK(included.errors() == 0);
  CHECK(included.warnings() == 0);
  // ...but using it from the main file is an error.
  auto used = compile("#include \"values.idl\"\nstruct S { V x; };", {{"values.idl", idl}}, generating);
  CHECK(used.errors() == 1);
  // Other valuetypes, boxes and ValueBase generate.
  const std::string plain =
      "valuetype W { public long a; }; valuetype B string; abstract valuetype A {};"
      "interface K { ValueBase f(in W w, in B b, in A a); };";
  auto accepted = compile(plain, {}, generating);
  CHECK(accepted.errors() == 0);
  CHECK(accepted.warnings() == 0);
}

TEST_CASE("checks: a lattice of diamond inheritance stays fast", "[idl][checks]") {
  // Each interface inherits the two before it: 2^60 paths, 60 interfaces.
  std::string idl = "interface I0 {}; interface I1 : I0 {};";
  for (int i = 2; i < 60; ++i)
    idl += " interface I" + std::to_string(i) + " : I" + std::to_string(i - 1) + ", I" + std::to_string(i - 2) +
           " { typedef Missing" + std::to_string(i) + " T; };";
  auto c = compile(idl);
  CHECK(c.errors() == 58);  // each undefined name once, found after one walk of the bases
}
