// Helpers for the syidl tests: compile IDL held in memory and look at what came out.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "idl_compiler/ast.h"
#include "idl_compiler/diagnostics.h"
#include "idl_compiler/front_end.h"
#include "idl_compiler/lexer.h"
#include "idl_compiler/preprocessor.h"

namespace switchyard::idl::testing {

struct Compiled {
  std::unique_ptr<SourceManager> sources = std::make_unique<SourceManager>();
  std::unique_ptr<Diagnostics> diagnostics;
  std::unique_ptr<Specification> specification;
  std::size_t errors() const { return diagnostics->error_count(); }
  std::size_t warnings() const { return diagnostics->warning_count(); }
  // Every diagnostic, formatted exactly as syidl prints it.
  std::string text() const {
    std::string out;
    for (const Diagnostic& d : diagnostics->diagnostics()) out += diagnostics->format(d);
    return out;
  }
  // The first error's message (no location), or "".
  std::string first_error() const {
    for (const Diagnostic& d : diagnostics->diagnostics())
      if (d.severity == Severity::error) return d.message;
    return "";
  }
  std::string dump(bool all = false) const { return dump_declarations(*specification, all); }
};

inline Compiled compile(const std::string& main_text, const std::map<std::string, std::string>& other_files = {},
                        FrontEndOptions options = {}) {
  Compiled c;
  c.diagnostics = std::make_unique<Diagnostics>(*c.sources);
  MemoryFileSystem files;
  files.add("main.idl", main_text);
  for (const auto& [path, text] : other_files) files.add(path, text);
  c.specification = compile_file("main.idl", files, *c.sources, *c.diagnostics, options);
  return c;
}

// The repository id of the declaration with this scoped name ("::A::B"), or "" when none.
inline std::string repository_id(const Compiled& c, const std::string& scoped) {
  const std::string dump = c.dump(true);
  std::size_t pos = 0;
  while (pos < dump.size()) {
    std::size_t end = dump.find('\n', pos);
    if (end == std::string::npos) end = dump.size();
    const std::string line = dump.substr(pos, end - pos);
    const std::size_t id_at = line.rfind(' ');
    const std::size_t name_at = line.rfind(' ', id_at - 1);
    if (id_at != std::string::npos && name_at != std::string::npos &&
        line.substr(name_at + 1, id_at - name_at - 1) == scoped)
      return line.substr(id_at + 1);
    pos = end + 1;
  }
  return "";
}

// All tokens of a text, through the lexer alone.
inline std::vector<Token> lex_all(const std::string& text, Diagnostics& diagnostics) {
  Lexer lexer(text, 1, diagnostics);
  std::vector<Token> tokens;
  for (Token t = lexer.next(); !t.is(TokenKind::end_of_file) && tokens.size() < 10000; t = lexer.next())
    tokens.push_back(t);
  return tokens;
}

// All tokens the preprocessor gives for main.idl (markers included).
struct Preprocessed {
  std::unique_ptr<SourceManager> sources = std::make_unique<SourceManager>();
  std::unique_ptr<Diagnostics> diagnostics;
  std::vector<Token> tokens;
  std::string spelling() const {  // token texts joined by spaces, markers skipped
    std::string out;
    for (const Token& t : tokens) {
      if (t.is(TokenKind::pragma) || t.is(TokenKind::file_begin) || t.is(TokenKind::file_end)) continue;
      if (!out.empty()) out += ' ';
      out += t.is(TokenKind::string_literal) ? "\"" + t.text + "\"" : t.text;
    }
    return out;
  }
};

inline Preprocessed preprocess(const std::string& main_text, const std::map<std::string, std::string>& other_files = {},
                               PreprocessorOptions options = {}) {
  Preprocessed p;
  p.diagnostics = std::make_unique<Diagnostics>(*p.sources);
  MemoryFileSystem files;
  files.add("main.idl", main_text);
  for (const auto& [path, text] : other_files) files.add(path, text);
  Preprocessor pre(*p.sources, *p.diagnostics, files, options);
  if (!pre.open_main_file("main.idl")) return p;
  for (Token t = pre.next(); !t.is(TokenKind::end_of_file) && p.tokens.size() < 100000; t = pre.next())
    p.tokens.push_back(t);
  return p;
}

}  // namespace switchyard::idl::testing
