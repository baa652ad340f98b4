#include "idl_compiler/parser.h"

#include <catch2/catch.hpp>

#include "idl_test_support.h"

using namespace switchyard::idl;
using namespace switchyard::idl::testing;

namespace {
template <typename T>
T& at(const DeclarationList& list, std::size_t i) {
  REQUIRE(i < list.size());
  REQUIRE(dynamic_cast<T*>(list[i].get()) != nullptr);
  return static_cast<T&>(*list[i]);
}
}  // namespace

TEST_CASE("parser: modules, interfaces, operations and attributes", "[idl][parser]") {
  auto c = compile(R"(
    module M {
      exception Oops { string why; };
      interface Base { void ping(); };
      interface Other {};
      interface I : Base, Other {
        readonly attribute long count raises (Oops);
        attribute string name getraises (Oops) setraises (Oops);
        attribute short a, b;
        oneway void fire(in long x);
        long op(in long a, out string b, inout double c) raises (Oops) context ("x.y", "z*");
      };
      local interface L;
      abstract interface A {};
    };
  )");
  REQUIRE(c.errors() == 0);
  auto& m = at<Module>(c.specification->root.definitions, 0);
  CHECK(m.name == "M");
  auto& i = at<Interface>(m.definitions, 3);
  CHECK(i.name == "I");
  REQUIRE(i.bases.size() == 2);
  CHECK(i.bases[0]->name == "Base");
  auto& count = at<Attribute>(i.definitions, 0);
  CHECK(count.readonly);
  REQUIRE(count.get_raises.size() == 1);
  auto& name = at<Attribute>(i.definitions, 1);
  CHECK(name.set_raises.size() == 1);
  CHECK(at<Attribute>(i.definitions, 3).name == "b");
  auto& fire = at<Operation>(i.definitions, 4);
  CHECK(fire.oneway);
  auto& op = at<Operation>(i.definitions, 5);
  REQUIRE(op.parameters.size() == 3);
  CHECK(op.parameters[1]->direction == ParameterDirection::out);
  CHECK(op.parameters[2]->direction == ParameterDirection::inout);
  CHECK(op.contexts == std::vector<std::string>{"x.y", "z*"});
  CHECK(at<Interface>(m.definitions, 4).is_local);
  CHECK(at<Interface>(m.definitions, 4).forward);
  CHECK(at<Interface>(m.definitions, 5).is_abstract);
}

TEST_CASE("parser: types, declarators and inline definitions", "[idl][parser]") {
  auto c = compile(R"(
    typedef sequence<sequence<long, 4>> Nested;
    typedef string<8> Small, Grid[2][3];
    typedef fixed<10, 2> Money;
    typedef struct Point { long x, y; } P;
    union U switch (enum Kind { one, two, three }) { case one: case two: long v; default: octet o; };
    const long long big = 0x7fffffffffffffff;
    native Handle;
    typedef wstring<5> W;
    typedef any A; typedef Object O; typedef ValueBase VB; typedef TypeCode TC;
    typedef unsigned long long ULL; typedef long double LD; typedef wchar WC;
  )");
  REQUIRE(c.errors() == 0);
  const auto& defs = c.specification->root.definitions;
  auto& nested = at<Typedef>(defs, 0);
  REQUIRE(nested.type->kind == TypeKind::sequence);
  CHECK(nested.type->element->kind == TypeKind::sequence);
  CHECK(nested.type->element->bound == 4);
  auto& grid = at<Typedef>(defs, 2);
  REQUIRE(grid.type->kind == TypeKind::array);
  CHECK(grid.type->dimensions == std::vector<std::uint64_t>{2, 3});
  CHECK(grid.type->element->kind == TypeKind::string);
  CHECK(grid.type->element->bound == 8);
  auto& money = at<Typedef>(defs, 3);
  CHECK(money.type->digits == 10);
  CHECK(money.type->scale == 2);
  // The inline struct comes before the typedef that uses it.
  CHECK(at<Struct>(defs, 4).name == "Point");
  CHECK(at<Struct>(defs, 4).members.size() == 2);
  CHECK(at<Typedef>(defs, 5).type->resolved == defs[4].get());
  auto& u = at<Union>(defs, 6);
  CHECK(at<Enum>(u.definitions, 0).enumerators.size() == 3);
  REQUIRE(u.cases.size() == 2);
  CHECK(u.cases[0].labels.size() == 2);
  CHECK(u.cases[1].labels[0].is_default);
  CHECK(at<Constant>(defs, 7).value.signed_integer == INT64_MAX);
  CHECK(at<Typedef>(defs, 13).type->basic == BasicType::type_code);
}

TEST_CASE("parser: valuetypes are parsed", "[idl][parser]") {
  auto c = compile(R"(
    interface I {};
    valuetype Box long;
    abstract valuetype Abs { void f(); };
    valuetype Base { public long a; private string b; factory make(in long a) ; };
    custom valuetype Cust : truncatable Base supports I { public Base next; };
    valuetype Fwd;
  )");
  CHECK(c.errors() == 0);
  const auto& defs = c.specification->root.definitions;
  CHECK(defs[1]->kind == DeclKind::value_box);
  CHECK(at<ValueType>(defs, 2).is_abstract);
  CHECK(at<ValueType>(defs, 4).is_custom);
  CHECK(at<ValueType>(defs, 4).is_truncatable);
  CHECK(at<ValueType>(defs, 5).forward);
}

TEST_CASE("parser: types declared inside structs, unions and exceptions", "[idl][parser]") {
  auto c = compile(R"(
    struct Outer {
      struct Inner { long a; };
      enum Color { red, green };
      exception Problem { string why; };
      union Pick switch (long) { case 1: Inner in1; };
      struct Node;
      struct Node { sequence<Node> kids; };
      Inner first;
      struct Point { short x; } corner;
      Color shade;
    };
    union U switch (short) {
      struct Circle { double r; };
      case 1: Circle round;
      enum Unit { mm };
      default: Unit bare;
    };
    exception E { struct Detail { long code; }; Detail about; };
  )");
  REQUIRE(c.errors() == 0);
  const auto& defs = c.specification->root.definitions;
  auto& outer = at<Struct>(defs, 0);
  // Declared on their own: definitions, no member; inline: a definition and a member.
  REQUIRE(outer.definitions.size() == 7);
  CHECK(at<Struct>(outer.definitions, 0).name == "Inner");
  CHECK(at<Enum>(outer.definitions, 1).name == "Color");
  CHECK(at<Exception>(outer.definitions, 2).members.size() == 1);
  CHECK(at<Union>(outer.definitions, 3).cases.size() == 1);
  CHECK(at<Struct>(outer.definitions, 4).forward);
  CHECK(at<Struct>(outer.definitions, 6).name == "Point");
  REQUIRE(outer.members.size() == 3);
  CHECK(outer.members[0]->type->resolved == outer.definitions[0].get());
  CHECK(outer.members[1]->name == "corner");
  CHECK(outer.members[1]->type->resolved == outer.definitions[6].get());
  auto& u = at<Union>(defs, 1);
  REQUIRE(u.definitions.size() == 2);
  REQUIRE(u.cases.size() == 2);
  CHECK(u.cases[0].member->type->resolved == u.definitions[0].get());
  CHECK(u.cases[1].member->type->resolved == u.definitions[1].get());
  auto& e = at<Exception>(defs, 2);
  CHECK(at<Struct>(e.definitions, 0).name == "Detail");
  CHECK(e.members.size() == 1);
}

TEST_CASE("parser: typedefs and constants in struct, union and exception bodies", "[idl][parser]") {
  auto c = compile(R"(
    struct S { typedef long T; const short N = 2; T first; string<N> name; };
    union U switch (short) { typedef string Text; case 1: Text words; };
    exception E { const long Code = 4; typedef sequence<long> Codes; Codes all; };
  )");
  REQUIRE(c.errors() == 0);
  const auto& defs = c.specification->root.definitions;
  auto& s = at<Struct>(defs, 0);
  REQUIRE(s.definitions.size() == 2);
  CHECK(s.definitions[0]->kind == DeclKind::typedef_);
  CHECK(s.definitions[1]->kind == DeclKind::constant);
  REQUIRE(s.members.size() == 2);
  CHECK(s.members[0]->type->resolved == s.definitions[0].get());
  auto& u = at<Union>(defs, 1);
  REQUIRE(u.definitions.size() == 1);
  CHECK(u.cases[0].member->type->resolved == u.definitions[0].get());
  auto& e = at<Exception>(defs, 2);
  REQUIRE(e.definitions.size() == 2);
  CHECK(e.members[0]->type->resolved == e.definitions[1].get());
  // Scoped by their holder: not visible outside it unqualified.
  CHECK(compile("struct S { typedef long T; T first; }; struct R { T second; };").first_error().find("'T'") !=
        std::string::npos);
  CHECK(compile("struct S { typedef long T; T first; }; struct R { S::T second; };").errors() == 0);
}

TEST_CASE("parser: what may not be declared inside a struct is one clear error", "[idl][parser]") {
  CHECK(compile("struct S { exception E { long c; } e; };").first_error() == "expected ';' after exception, found 'e'");
  CHECK(compile("struct S { interface I {}; long x; };").errors() >= 1);
  CHECK(compile("union U switch (long) { struct S { long a; } s; case 1: long x; };").first_error() ==
        "expected ';' after struct, found 's'");
}

TEST_CASE("parser: one error per syntax mistake, then recovery", "[idl][parser]") {
  auto c = compile(R"(
    struct A { long x long y; };
    struct B { long ok; };
    interface I { void f(in long); void g(); };
    module M { typedef long; };
    const long C = 1;
  )");
  CHECK(c.errors() == 3);
  // What follows each mistake was still parsed.
  const auto& defs = c.specification->root.definitions;
  REQUIRE(defs.size() == 5);
  CHECK(defs[1]->name == "B");
  CHECK(defs[4]->name == "C");
}

TEST_CASE("parser: missing ';' is one error and parsing goes on", "[idl][parser]") {
  auto c = compile("struct A { long x; }\nstruct B { long y; };\n");
  REQUIRE(c.errors() == 1);
  CHECK(c.first_error() == "expected ';' after struct, found 'struct'");
  CHECK(c.specification->root.definitions.size() == 2);
}

TEST_CASE("parser: keywords and escaped identifiers", "[idl][parser]") {
  CHECK(compile("typedef long module;").first_error() == "expected a name, found keyword 'module'");
  CHECK(compile("typedef long Interface;").first_error() ==
        "identifier 'Interface' collides with keyword 'interface' (IDL keywords match "
        "regardless of case; escape it as '_Interface')");
  auto ok = compile("typedef long _Interface; typedef Interface Again;");
  CHECK(ok.errors() == 0);
  CHECK(ok.specification->root.definitions[0]->name == "Interface");
  CHECK(compile("component C {};").first_error() == "'component' (CORBA Component Model) is not supported");
}

TEST_CASE("parser: nesting is bounded", "[idl][parser]") {
  std::string modules;
  for (int i = 0; i < 500; ++i) modules += "module m" + std::to_string(i) + " { ";
  modules += "const long x = 1; ";
  for (int i = 0; i < 500; ++i) modules += "}; ";
  auto c = compile(modules);
  REQUIRE(c.errors() == 1);
  CHECK(c.first_error() == "declarations or expressions nested too deeply (more than 100 levels)");

  std::string expr = "const long x = " + std::string(5000, '(') + "1" + std::string(5000, ')') + ";";
  auto e = compile(expr);
  CHECK(e.errors() == 1);
  std::string sequences = "typedef ";
  for (int i = 0; i < 1000; ++i) sequences += "sequence<";
  sequences += "long" + std::string(1000, '>') + " S;";
  CHECK(compile(sequences).errors() >= 1);
  CHECK(compile(std::string(3000, '-') + "1").errors() >= 1);
}

TEST_CASE("parser: '>>' closes two templates", "[idl][parser]") {
  auto c = compile("typedef sequence<sequence<string<4>>> S;");
  CHECK(c.errors() == 0);
}

TEST_CASE("parser: an abstract value box is an error, not a crash", "[idl][parser]") {
  CHECK(compile("abstract valuetype B long;").first_error() == "a value box cannot be abstract");
}

TEST_CASE("front end: arbitrary bytes give errors, never a crash", "[idl][parser]") {
  // Deterministic pseudo-random inputs made of IDL fragments and raw bytes.
  static const char* pieces[] = {"module ",
                                 "interface ",
                                 "struct ",
                                 "union ",
                                 "switch",
                                 "(",
                                 ")",
                                 "{",
                                 "}",
                                 ";",
                                 "<",
                                 ">",
                                 ">>",
                                 "::",
                                 "#define X(a) a a\n",
                                 "#if ",
                                 "#endif\n",
                                 "#include \"main.idl\"\n",
                                 "X(",
                                 "case 1:",
                                 "long ",
                                 "sequence",
                                 "\"str",
                                 "'",
                                 "/*",
                                 "typedef ",
                                 "A ",
                                 "a ",
                                 ",",
                                 "=",
                                 "1",
                                 "0x",
                                 "\n",
                                 "#pragma prefix \"p\"\n",
                                 "\xff"};
  std::uint32_t state = 12345;
  for (int round = 0; round < 300; ++round) {
    std::string text;
    for (int i = 0; i < 60; ++i) {
      state = state * 1103515245u + 12345u;
      text += pieces[(state >> 16) % (sizeof pieces / sizeof pieces[0])];
    }
    auto c = compile(text);
    (void)c.text();
  }
  SUCCEED();
}
