// syidl C++ back end: writes X.h for X.idl. The #includes, then the main file's declarations in
// IDL order: modules as namespaces, types (structs, unions, enums, exceptions, typedefs,
// constants), and for each interface its stub class and its skeleton class; after each type its
// TypeCode and Any declarations (cxx_typecode.h). docs/idl.md has the mapping. May include ast.h
// and the other cxx_* headers.
#pragma once

#include <string>
#include <vector>

#include "idl_compiler/ast.h"

namespace switchyard::idl::cxx {

struct HeaderOptions {
  std::string idl_file;               // "greeter.idl", for the first line
  std::vector<std::string> includes;  // generated headers to include, "Y" for "Y.h" (cxx_includes.h)
  bool perfect_hash = true;           // skeletons declare _perfect_lookup (-H all or perfect)
  bool ami = false;                   // --ami: AMI handlers, pollers, sendc_ and sendp_ (cxx_ami.h)
};

std::string header_file(const Specification& specification, const HeaderOptions& options);

}  // namespace switchyard::idl::cxx
