#include "idl_compiler/front_end.h"

#include "idl_compiler/parser.h"

namespace switchyard::idl {

std::unique_ptr<Specification> compile_file(const std::string& path, FileSystem& files, SourceManager& sources,
                                            Diagnostics& diagnostics, const FrontEndOptions& options) {
  auto specification = std::make_unique<Specification>();
  const std::size_t errors_before = diagnostics.error_count();
  Preprocessor preprocessor(sources, diagnostics, files, options.preprocessor);
  if (!preprocessor.open_main_file(path)) return specification;
  Parser parser(preprocessor, sources, diagnostics);
  parser.parse(*specification);
  if (diagnostics.error_count() == errors_before) check(*specification, diagnostics, options.checks);
  return specification;
}

}  // namespace switchyard::idl
