// syidl stage 2: the preprocessor, done by syidl itself (no external cpp). Pulls tokens from a
// stack of lexers (one per #include'd file) and gives the parser one stream: directives done,
// macros expanded, #pragma prefix/version/ID and file boundaries passed on as marker tokens.
// Bounded everywhere: #include depth, macro expansion depth and count, conditional nesting.
// May include lexer.h, diagnostics.h.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "idl_compiler/diagnostics.h"
#include "idl_compiler/lexer.h"

namespace switchyard::idl {

// Where #include finds files: the disk, or memory (tests, fuzzing).
class FileSystem {
 public:
  virtual ~FileSystem() = default;
  virtual std::optional<std::string> read(const std::string& path) = 0;
};

class DiskFileSystem final : public FileSystem {
 public:
  std::optional<std::string> read(const std::string& path) override;
};

class MemoryFileSystem final : public FileSystem {
 public:
  void add(std::string path, std::string text) { files_[std::move(path)] = std::move(text); }
  std::optional<std::string> read(const std::string& path) override;

 private:
  std::map<std::string, std::string> files_;
};

struct PreprocessorOptions {
  std::vector<std::string> include_dirs;                     // -I, in order
  std::vector<std::pair<std::string, std::string>> defines;  // -D name=value ("1" when no value)
  std::size_t max_include_depth = 64;
  std::size_t max_macro_depth = 200;          // nested expansions in flight
  std::size_t max_macro_expansions = 100000;  // per translation unit
  std::size_t max_tokens_per_expansion = 100000;
  std::size_t max_conditional_depth = 256;
};

class Preprocessor {
 public:
  Preprocessor(SourceManager& sources, Diagnostics& diagnostics, FileSystem& files, PreprocessorOptions options);
  ~Preprocessor();

  // Opens the main file; false (with an error) when it cannot be read.
  bool open_main_file(const std::string& path);
  // The next token for the parser; end_of_file once everything is read.
  Token next();
  // The physical SourceManager entry of the main file (0 before open_main_file).
  std::uint32_t main_file() const { return main_file_; }

 private:
  struct Macro {
    bool function_like = false;
    bool variadic = false;
    std::vector<std::string> parameters;
    std::vector<Token> body;
    SourceLocation location;
  };
  struct Frame;
  struct Conditional {
    bool active;  // this branch is being read
    bool taken;   // some branch of this #if was true
    bool seen_else;
    bool parent_active;
    SourceLocation location;
  };
  struct Expansion {
    std::vector<Token> tokens;
    std::size_t position = 0;
    std::string macro;  // disabled while this expansion is being read
  };

  Token raw_next(bool& from_file);
  bool push_file(const std::string& path, SourceLocation included_from);
  void directive(const Token& hash);
  std::vector<Token> line_tokens();
  void do_include(const Token& directive_token);
  void do_define(const Token& directive_token);
  void do_if(const Token& directive_token, const std::string& kind);
  void do_line(const Token& directive_token);
  Token do_pragma(const Token& directive_token, bool& emit);
  bool evaluate_condition(std::vector<Token> tokens, SourceLocation location);
  bool skipping() const { return !conditionals_.empty() && !conditionals_.back().active; }
  bool is_disabled(const std::string& name) const;
  // Expands the macro named by `name` (already taken from the stream). False: not expanded.
  bool expand(const Token& name);
  bool collect_arguments(const Token& name, const Macro& macro, std::vector<std::vector<Token>>& arguments);
  Token next_for_arguments();
  std::vector<Token> expand_list(std::vector<Token> tokens, std::size_t depth);
  std::vector<Token> substitute(const Macro& macro, const std::vector<std::vector<Token>>& raw, const Token& name,
                                std::size_t depth);

  SourceManager& sources_;
  Diagnostics& diagnostics_;
  FileSystem& files_;
  PreprocessorOptions options_;
  std::vector<std::unique_ptr<Frame>> frames_;
  std::vector<Conditional> conditionals_;
  std::vector<Expansion> expansions_;
  std::unordered_map<std::string, Macro> macros_;
  // Marker tokens and pushed-back tokens (with: came from a file), read back to front.
  std::vector<std::pair<Token, bool>> pending_;
  std::size_t expansion_count_ = 0;
  std::size_t expanded_tokens_ = 0;
  bool expansion_limit_reported_ = false;
  std::uint32_t main_file_ = 0;
};

}  // namespace switchyard::idl
