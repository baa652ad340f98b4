// syidl: source files and the error reporter. Every stage reports through Diagnostics, which
// prints `file:line:column: error: message`, the source line and a caret under the column.
// May include only the standard library.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace switchyard::idl {

// A position in a source file as the user sees it (after #line). Lines and columns count from 1;
// line 0 means "no location" (command line, whole-file problems).
struct SourceLocation {
  std::uint32_t file = 0;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  bool valid() const { return line != 0; }
};

// The files the compiler has read. Each #line directive opens a new entry over the same text, with
// the difference between presumed and physical line numbers, so carets still show the real line.
class SourceManager {
 public:
  SourceManager();
  std::uint32_t add_file(std::string name, std::shared_ptr<const std::string> text, std::uint32_t physical_file = 0,
                         std::int64_t line_delta = 0);
  const std::string& name(std::uint32_t file) const;
  // The physical file an entry shows (itself, or the file a #line entry renames).
  std::uint32_t physical_file(std::uint32_t file) const;
  // The text of the location's line, without its newline; empty when unknown.
  std::string_view line_text(SourceLocation location) const;
  std::size_t file_count() const { return entries_.size(); }

 private:
  struct Entry {
    std::string name;
    std::shared_ptr<const std::string> text;
    std::uint32_t physical_file;
    std::int64_t line_delta;
    std::vector<std::uint32_t> line_starts;  // built on first use
  };
  mutable std::vector<Entry> entries_;
};

enum class Severity { error, warning, note };

struct Diagnostic {
  Severity severity;
  SourceLocation location;
  std::string message;
};

// Collects and prints diagnostics. Output stops after `max_printed` errors so a hostile input
// cannot flood the terminal; counting goes on.
class Diagnostics {
 public:
  explicit Diagnostics(const SourceManager& sources, std::ostream* out = nullptr);

  void error(SourceLocation location, std::string message);
  void warning(SourceLocation location, std::string message);
  void note(SourceLocation location, std::string message);

  std::size_t error_count() const { return error_count_; }
  std::size_t warning_count() const { return warning_count_; }
  // Where the last error was (to keep one mistake from giving a second error on its line).
  SourceLocation last_error_location() const { return last_error_location_; }
  // Kept for tests (the first `max_kept` only).
  const std::vector<Diagnostic>& diagnostics() const { return kept_; }
  // The full text of one diagnostic: header line, source line, caret line.
  std::string format(const Diagnostic& diagnostic) const;

  static constexpr std::size_t max_printed = 50;
  static constexpr std::size_t max_kept = 1000;

 private:
  void report(Severity severity, SourceLocation location, std::string message);

  const SourceManager& sources_;
  std::ostream* out_;
  std::size_t error_count_ = 0;
  std::size_t warning_count_ = 0;
  SourceLocation last_error_location_;
  bool printing_ = true;
  bool last_printed_ = true;  // a note follows the fate of its error
  std::vector<Diagnostic> kept_;
};

}  // namespace switchyard::idl
