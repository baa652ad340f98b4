// syidl: what a back end (code generator) implements. The driver (main.cpp) runs every back end
// registered in make_back_ends() on each checked main file when an output directory is given
// (-o); today that is the C++ back end (cxx_back_end.h). May include ast.h, diagnostics.h.
#pragma once

#include <string>

#include "idl_compiler/ast.h"
#include "idl_compiler/diagnostics.h"

namespace switchyard::idl {

struct BackEndOptions {
  std::string output_dir;        // -o
  std::string operation_tables;  // -H: linear, dynamic, perfect, perfect-fast, active or all
  std::string main_file;         // as named on the command line
  bool ami = false;              // --ami: asynchronous method invocation's stubs
};

class BackEnd {
 public:
  virtual ~BackEnd() = default;
  virtual const char* name() const = 0;
  // Generates code for the main-file declarations of `specification` (Declaration::in_main_file).
  // False after reporting an error through `diagnostics`.
  virtual bool generate(const Specification& specification, const BackEndOptions& options,
                        Diagnostics& diagnostics) = 0;
};

}  // namespace switchyard::idl
