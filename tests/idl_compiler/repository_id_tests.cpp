// Repository ids as CORBA 3.0 section 10.7 gives them; the expectations on #pragma prefix
// scoping match what omniidl 4.2 produces for the same input.
#include <catch2/catch.hpp>

#include "idl_test_support.h"

using namespace switchyard::idl;
using namespace switchyard::idl::testing;

TEST_CASE("repository ids: plain scoped names", "[idl][repository_id]") {
  auto c = compile(
      "struct BinStruct { short s; }; interface ttcp_sequence { "
      "typedef sequence<BinStruct> StructSeq; void op(); attribute long a; };");
  REQUIRE(c.errors() == 0);
  CHECK(repository_id(c, "::BinStruct") == "IDL:BinStruct:1.0");
  CHECK(repository_id(c, "::ttcp_sequence") == "IDL:ttcp_sequence:1.0");
  CHECK(repository_id(c, "::ttcp_sequence::StructSeq") == "IDL:ttcp_sequence/StructSeq:1.0");
  CHECK(repository_id(c, "::ttcp_sequence::op") == "IDL:ttcp_sequence/op:1.0");
  CHECK(repository_id(c, "::ttcp_sequence::a") == "IDL:ttcp_sequence/a:1.0");
}

TEST_CASE("repository ids: the example of CORBA 3.0 section 10.7.5", "[idl][repository_id]") {
  auto c = compile(R"(
module M1 {
  typedef long T1;
  typedef long T2;
#pragma ID T2 "DCE:d62207a2-011e-11ce-88b4-0800090b5d3e:3"
};
#pragma prefix "P1"
module M2 {
  module M3 {
#pragma prefix "P2"
    typedef long T3;
  };
  typedef long T4;
#pragma version T4 2.4
};
)");
  REQUIRE(c.errors() == 0);
  CHECK(repository_id(c, "::M1::T1") == "IDL:M1/T1:1.0");
  CHECK(repository_id(c, "::M1::T2") == "DCE:d62207a2-011e-11ce-88b4-0800090b5d3e:3");
  CHECK(repository_id(c, "::M2") == "IDL:P1/M2:1.0");
  CHECK(repository_id(c, "::M2::M3::T3") == "IDL:P2/T3:1.0");
  CHECK(repository_id(c, "::M2::T4") == "IDL:P1/M2/T4:2.4");
}

TEST_CASE("repository ids: a prefix ends with its scope and with its file", "[idl][repository_id]") {
  auto c = compile(R"(
#pragma prefix "main.org"
module MM {
#include "inc.idl"
  typedef long After;
};
module E {
#pragma prefix ""
  typedef long T;
  module Inner { typedef long U; };
};
typedef long Last;
)",
                   {{"inc.idl", "typedef long IncT;\n#pragma prefix \"inc.org\"\ntypedef long IncT2;\n"}});
  REQUIRE(c.errors() == 0);
  CHECK(repository_id(c, "::MM") == "IDL:main.org/MM:1.0");
  CHECK(repository_id(c, "::MM::IncT") == "IDL:IncT:1.0");
  CHECK(repository_id(c, "::MM::IncT2") == "IDL:inc.org/IncT2:1.0");
  CHECK(repository_id(c, "::MM::After") == "IDL:main.org/MM/After:1.0");
  CHECK(repository_id(c, "::E::T") == "IDL:T:1.0");
  CHECK(repository_id(c, "::E::Inner::U") == "IDL:Inner/U:1.0");
  CHECK(repository_id(c, "::Last") == "IDL:main.org/Last:1.0");
}

TEST_CASE("repository ids: typeprefix and typeid", "[idl][repository_id]") {
  auto c = compile(R"(
module CORBA {
  typeprefix CORBA "omg.org";
  interface Policy {};
};
module N { struct S { long a; }; };
typeprefix N "example.com";
module N { struct T { long b; }; };
typeid N::S "IDL:custom/S:7.0";
interface I {};
typeid I "LOCAL:i";
)");
  REQUIRE(c.errors() == 0);
  CHECK(repository_id(c, "::CORBA") == "IDL:CORBA:1.0");
  CHECK(repository_id(c, "::CORBA::Policy") == "IDL:omg.org/CORBA/Policy:1.0");
  CHECK(repository_id(c, "::N::T") == "IDL:example.com/N/T:1.0");
  CHECK(repository_id(c, "::N::S") == "IDL:custom/S:7.0");
  CHECK(repository_id(c, "::I") == "LOCAL:i");
}

TEST_CASE("repository ids: #pragma ID and version on forward declarations", "[idl][repository_id]") {
  auto c = compile(R"(
interface F;
#pragma ID F "IDL:forward/F:1.0"
interface F {};
struct S;
#pragma version S 3.1
struct S { long a; };
)");
  REQUIRE(c.errors() == 0);
  CHECK(repository_id(c, "::F") == "IDL:forward/F:1.0");
  CHECK(repository_id(c, "::S") == "IDL:S:3.1");
}

TEST_CASE("repository ids: wrong pragmas", "[idl][repository_id]") {
  auto twice = compile("typedef long T;\n#pragma ID T \"IDL:a:1.0\"\n#pragma ID T \"IDL:b:1.0\"\n");
  CHECK(twice.first_error() == "repository id of 'T' is already 'IDL:a:1.0'");
  auto version = compile("typedef long T;\n#pragma version T 1.1\n#pragma version T 1.2\n");
  CHECK(version.first_error() == "version of 'T' is already 1.1");
  auto dce = compile("typedef long T;\n#pragma ID T \"DCE:x:1\"\n#pragma version T 2.0\n");
  CHECK(dce.first_error() == "#pragma version cannot apply to 'T', whose repository id 'DCE:x:1' is not in IDL format");
  CHECK(compile("#pragma ID Nope \"IDL:x:1.0\"\n").first_error() == "undefined name 'Nope'");
  CHECK(compile("typedef long T;\n#pragma ID T \"nocolon\"\n").first_error() ==
        "'nocolon' is not a repository id (expected a form like IDL:name:1.0)");
  CHECK(compile("typedef long T;\n#pragma version T 1\n").first_error() ==
        "#pragma version expects a name and a version like 1.2");
  CHECK(compile("#pragma prefix omg\n").first_error() == "#pragma prefix expects one string literal");
}

TEST_CASE("repository ids: the shared IDL files", "[idl][repository_id]") {
  FrontEndOptions options;
  DiskFileSystem disk;
  for (const char* name : {"ttcp_sequence.idl", "integrity.idl"}) {
    Compiled c;
    c.diagnostics = std::make_unique<Diagnostics>(*c.sources);
    c.specification = compile_file(std::string(SHARED_IDL_DIR) + "/" + name, disk, *c.sources, *c.diagnostics, options);
    INFO(c.text());
    REQUIRE(c.errors() == 0);
    if (std::string(name) == "ttcp_sequence.idl") {
      CHECK(repository_id(c, "::BinStruct") == "IDL:BinStruct:1.0");
      CHECK(repository_id(c, "::ttcp_sequence") == "IDL:ttcp_sequence:1.0");
      CHECK(repository_id(c, "::ttcp_sequence::StructSeq") == "IDL:ttcp_sequence/StructSeq:1.0");
      CHECK(repository_id(c, "::ttcp_sequence::OctetSeq") == "IDL:ttcp_sequence/OctetSeq:1.0");
    } else {
      CHECK(repository_id(c, "::Integrity") == "IDL:Integrity:1.0");
      CHECK(repository_id(c, "::Integrity::Echo") == "IDL:Integrity/Echo:1.0");
      CHECK(repository_id(c, "::Integrity::Record") == "IDL:Integrity/Record:1.0");
      CHECK(repository_id(c, "::Integrity::NARecord") == "IDL:Integrity/NARecord:1.0");
      CHECK(repository_id(c, "::Integrity::Variant") == "IDL:Integrity/Variant:1.0");
      CHECK(repository_id(c, "::Integrity::Refused") == "IDL:Integrity/Refused:1.0");
      CHECK(repository_id(c, "::Integrity::Matrix") == "IDL:Integrity/Matrix:1.0");
      CHECK(repository_id(c, "::Integrity::Color") == "IDL:Integrity/Color:1.0");
    }
  }
}

TEST_CASE("repository ids: types nested in structs, unions and exceptions", "[idl][repository_id]") {
  // The ids omniidl gives the inline forms (struct Inner {...} member;), which it accepts; the
  // declaration-only forms get the same.
  auto c = compile(R"(
#pragma prefix "acme.com"
module M {
  struct Outer {
    struct Inner { long a; };
    enum Color { red };
    exception Problem { long code; };
    struct Point { short x; } corner;
    Inner first;
  };
  union U switch (short) { struct Circle { double r; }; case 1: Circle round; };
  exception E { struct Detail { struct Deeper { long d; }; Deeper x; }; Detail about; };
};
)");
  REQUIRE(c.errors() == 0);
  CHECK(repository_id(c, "::M::Outer::Inner") == "IDL:acme.com/M/Outer/Inner:1.0");
  CHECK(repository_id(c, "::M::Outer::Color") == "IDL:acme.com/M/Outer/Color:1.0");
  CHECK(repository_id(c, "::M::Outer::Problem") == "IDL:acme.com/M/Outer/Problem:1.0");
  CHECK(repository_id(c, "::M::Outer::Point") == "IDL:acme.com/M/Outer/Point:1.0");
  CHECK(repository_id(c, "::M::U::Circle") == "IDL:acme.com/M/U/Circle:1.0");
  CHECK(repository_id(c, "::M::E::Detail::Deeper") == "IDL:acme.com/M/E/Detail/Deeper:1.0");
}
