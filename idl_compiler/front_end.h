// syidl: the whole front end for one main file: preprocessor -> parser -> checks. Used by the
// driver (main.cpp), the tests and the fuzz target. May include every stage's header.
#pragma once

#include <memory>
#include <string>

#include "idl_compiler/ast.h"
#include "idl_compiler/checks.h"
#include "idl_compiler/diagnostics.h"
#include "idl_compiler/preprocessor.h"

namespace switchyard::idl {

struct FrontEndOptions {
  PreprocessorOptions preprocessor;
  CheckOptions checks;
};

// Compiles `path` (read through `files`). Returns the AST (also when there were errors: then it
// is incomplete). Checks run only when parsing succeeded, so syntax errors do not cascade into
// name errors. Success is `diagnostics.error_count() == 0`.
std::unique_ptr<Specification> compile_file(const std::string& path, FileSystem& files, SourceManager& sources,
                                            Diagnostics& diagnostics, const FrontEndOptions& options);

}  // namespace switchyard::idl
