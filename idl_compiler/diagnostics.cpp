#include "idl_compiler/diagnostics.h"

#include <ostream>

namespace switchyard::idl {

SourceManager::SourceManager() {
  // Entry 0 stands for "no file" so that a default SourceLocation names nothing.
  entries_.push_back(Entry{"<command line>", nullptr, 0, 0, {}});
}

std::uint32_t SourceManager::add_file(std::string name, std::shared_ptr<const std::string> text,
                                      std::uint32_t physical_file, std::int64_t line_delta) {
  const auto id = static_cast<std::uint32_t>(entries_.size());
  entries_.push_back(Entry{std::move(name), std::move(text), physical_file == 0 ? id : physical_file, line_delta, {}});
  return id;
}

const std::string& SourceManager::name(std::uint32_t file) const {
  return entries_[file < entries_.size() ? file : 0].name;
}

std::uint32_t SourceManager::physical_file(std::uint32_t file) const {
  return file < entries_.size() ? entries_[file].physical_file : 0;
}

std::string_view SourceManager::line_text(SourceLocation location) const {
  if (location.file == 0 || location.file >= entries_.size()) return {};
  Entry& entry = entries_[location.file];
  if (!entry.text) return {};
  if (entry.line_starts.empty()) {
    entry.line_starts.push_back(0);
    const std::string& text = *entry.text;
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') entry.line_starts.push_back(static_cast<std::uint32_t>(i + 1));
  }
  const std::int64_t physical_line = static_cast<std::int64_t>(location.line) - entry.line_delta;
  if (physical_line < 1 || physical_line > static_cast<std::int64_t>(entry.line_starts.size())) return {};
  const std::string& text = *entry.text;
  const std::size_t begin = entry.line_starts[static_cast<std::size_t>(physical_line - 1)];
  std::size_t end = text.find('\n', begin);
  if (end == std::string::npos) end = text.size();
  if (end > begin && text[end - 1] == '\r') --end;
  return std::string_view(text).substr(begin, end - begin);
}

Diagnostics::Diagnostics(const SourceManager& sources, std::ostream* out) : sources_(sources), out_(out) {}

void Diagnostics::error(SourceLocation location, std::string message) {
  report(Severity::error, location, std::move(message));
}
void Diagnostics::warning(SourceLocation location, std::string message) {
  report(Severity::warning, location, std::move(message));
}
void Diagnostics::note(SourceLocation location, std::string message) {
  report(Severity::note, location, std::move(message));
}

void Diagnostics::report(Severity severity, SourceLocation location, std::string message) {
  if (severity == Severity::error) {
    ++error_count_;
    last_error_location_ = location;
  }
  if (severity == Severity::warning) ++warning_count_;
  Diagnostic diagnostic{severity, location, std::move(message)};
  if (out_ != nullptr) {
    if (severity == Severity::note) {
      if (last_printed_) *out_ << format(diagnostic);
    } else if (printing_) {
      *out_ << format(diagnostic);
      last_printed_ = true;
      if (severity == Severity::error && error_count_ >= max_printed) {
        *out_ << "syidl: too many errors; no more are shown\n";
        printing_ = false;
      }
    } else {
      last_printed_ = false;
    }
  }
  if (kept_.size() < max_kept) kept_.push_back(std::move(diagnostic));
}

std::string Diagnostics::format(const Diagnostic& diagnostic) const {
  const char* label = diagnostic.severity == Severity::error     ? "error"
                      : diagnostic.severity == Severity::warning ? "warning"
                                                                 : "note";
  std::string text;
  if (!diagnostic.location.valid()) {
    text = "syidl: ";
    text += label;
    text += ": " + diagnostic.message + "\n";
    return text;
  }
  const SourceLocation& at = diagnostic.location;
  text = sources_.name(at.file) + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + label +
         ": " + diagnostic.message + "\n";
  const std::string_view line = sources_.line_text(at);
  if (!line.empty()) {
    text.append(line);
    text += '\n';
    // Keep tabs so the caret lines up whatever the terminal's tab width.
    for (std::size_t i = 0; i + 1 < at.column && i < line.size(); ++i) text += line[i] == '\t' ? '\t' : ' ';
    text += "^\n";
  }
  return text;
}

}  // namespace switchyard::idl
