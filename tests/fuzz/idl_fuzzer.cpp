// libFuzzer target over the whole syidl front end: preprocessor, parser, checks. The input is
// the main file of an in-memory file system that also holds one small include file; any other
// #include fails. Both check modes run (plain checking, and generating for a back end).
// Links syidl_frontend_lib (idl_compiler/meson.build).
#include <cstddef>
#include <cstdint>
#include <string>

#include "idl_compiler/diagnostics.h"
#include "idl_compiler/front_end.h"
#include "idl_compiler/preprocessor.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace switchyard::idl;
  if (size > 64 * 1024) return 0;  // beyond this, only slower, not different
  MemoryFileSystem files;
  files.add("fuzz.idl", std::string(reinterpret_cast<const char*>(data), size));
  files.add("known.idl",
            "#ifndef KNOWN\n#define KNOWN\n#pragma prefix \"known.org\"\n"
            "module K { struct S { long a; }; interface I { void f(); }; };\n#endif\n");
  for (const bool generating : {false, true}) {
    SourceManager sources;
    Diagnostics diagnostics(sources);
    FrontEndOptions options;
    options.checks.generating = generating;
    options.preprocessor.defines = {{"FUZZ", "1"}};
    auto specification = compile_file("fuzz.idl", files, sources, diagnostics, options);
    if (diagnostics.error_count() == 0) (void)dump_declarations(*specification, true);
    // Formatting touches the caret code on every kept diagnostic.
    for (const Diagnostic& d : diagnostics.diagnostics()) (void)diagnostics.format(d);
  }
  return 0;
}
