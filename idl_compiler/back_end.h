// syidl: what a back end (code generator) implements. The driver runs every registered back end
// on each checked main file when an output directory is given (-o). None exists yet; the C++
// stubs/skeletons back end will be the first. May include ast.h, diagnostics.h.
#pragma once

#include <string>

#include "idl_compiler/ast.h"
#include "idl_compiler/diagnostics.h"

namespace switchyard::idl {

struct BackEndOptions {
  std::string output_dir;        // -o
  std::string operation_tables;  // -H: linear, dynamic, perfect, perfect-fast, active or all
  std::string main_file;         // as named on the command line
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
