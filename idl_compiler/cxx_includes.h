// syidl C++ back end: which other generated headers X.h includes. A walk over the main file's
// declarations collects every declaration of an #include'd IDL file that they name (types,
// raised exceptions, base interfaces, enumerators in constants and union labels), and each
// gives the header of the IDL file that declares it: "Y" for #include "Y.h". May include ast.h
// and cxx_types.h.
#pragma once

#include <string>
#include <vector>

#include "idl_compiler/ast.h"

namespace switchyard::idl::cxx {

// The base names (no directory, no extension) of the IDL files whose headers X.h includes,
// sorted, without duplicates.
std::vector<std::string> included_headers(const Specification& specification);

}  // namespace switchyard::idl::cxx
