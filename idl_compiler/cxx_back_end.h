// syidl's C++ back end: for X.idl writes X.h (types, stub classes, skeleton classes) and X.cpp
// (marshaling, stub bodies, skeleton dispatch, operation tables, TypeCodes). cxx_back_end.cpp
// runs the passes; each cxx_* file pair writes one part (README.md lists them). docs/idl.md
// describes the mapping. May include back_end.h and the cxx_*/gperf_* headers.
#pragma once

#include <memory>

#include "idl_compiler/back_end.h"

namespace switchyard::idl {

std::unique_ptr<BackEnd> make_cxx_back_end();

}  // namespace switchyard::idl
