#include "idl_compiler/cxx_emitter.h"

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace switchyard::idl::cxx {

namespace {

bool printable(std::uint32_t c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?'; }

std::u16string utf16_of(std::string_view utf8) {
  std::u16string out;
  for (std::size_t i = 0; i < utf8.size();) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    std::uint32_t cp = c;
    std::size_t n = 1;
    if (c >= 0xf0) {
      cp = c & 0x07;
      n = 4;
    } else if (c >= 0xe0) {
      cp = c & 0x0f;
      n = 3;
    } else if (c >= 0xc0) {
      cp = c & 0x1f;
      n = 2;
    }
    for (std::size_t k = 1; k < n && i + k < utf8.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3f);
    i += n;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out += static_cast<char16_t>(0xd800 + (cp >> 10));
      out += static_cast<char16_t>(0xdc00 + (cp & 0x3ff));
    } else {
      out += static_cast<char16_t>(cp);
    }
  }
  return out;
}

const std::string_view* find_field(std::initializer_list<Field> fields, std::string_view name) {
  for (const Field& f : fields)
    if (f.first == name) return &f.second;
  throw std::logic_error("syidl: template placeholder ${" + std::string(name) + "} has no value");
}

}  // namespace

std::string string_literal(std::string_view bytes) {
  std::string out = "\"";
  for (const unsigned char c : bytes) {
    if (printable(c)) {
      out += static_cast<char>(c);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\%03o", c);
      out += escaped;
    }
  }
  return out + "\"";
}

std::string u16_string_literal(std::string_view utf8) {
  // \x escapes do run into a following hex digit: each one ends the literal, and the next piece
  // starts a new one (adjacent literals are joined).
  std::string out = "u\"";
  for (const char16_t c : utf16_of(utf8)) {
    if (printable(c)) {
      out += static_cast<char>(c);
    } else {
      char escaped[16];
      std::snprintf(escaped, sizeof escaped, "\\x%04x\"u\"", static_cast<unsigned>(c));
      out += escaped;
    }
  }
  return out + "\"";
}

std::string indented(std::string_view text, std::string_view prefix) {
  std::string out;
  bool line_start = true;
  for (const char c : text) {
    if (line_start && c != '\n') out += prefix;
    out += c;
    line_start = c == '\n';
  }
  return out;
}

void NamespacedCode::add(const std::string& name_space, std::string_view code) {
  while (code.ends_with('\n')) code.remove_suffix(1);
  if (code.empty()) return;
  if (!empty_ && name_space == open_) {
    text_ += "\n\n";
  } else {
    close();
    if (!name_space.empty()) text_ += "namespace " + name_space + " {\n\n";
    open_ = name_space;
  }
  text_ += code;
  empty_ = false;
}

void NamespacedCode::close() {
  if (empty_) return;
  text_ += open_.empty() ? "\n\n" : "\n\n}  // namespace " + open_ + "\n\n";
  empty_ = true;
}

std::string NamespacedCode::finish() {
  close();
  open_.clear();
  return std::exchange(text_, {});
}

std::string fill(std::string_view text, std::initializer_list<Field> fields) {
  if (!text.empty() && text.front() == '\n') text.remove_prefix(1);
  std::string out;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end == std::string_view::npos ? text.size() : end + 1);
    text.remove_prefix(line.size());
    // A block line: indentation, one placeholder, the end of the line.
    const std::size_t indent = line.find_first_not_of(' ');
    const std::string_view rest = indent == std::string_view::npos ? std::string_view() : line.substr(indent);
    const std::string_view body = rest.ends_with('\n') ? rest.substr(0, rest.size() - 1) : rest;
    if (body.starts_with("${") && body.ends_with('}') && body.find('}') == body.size() - 1) {
      const std::string_view value = *find_field(fields, body.substr(2, body.size() - 3));
      if (value.empty()) continue;
      out += indented(value, line.substr(0, indent));
      if (!value.ends_with('\n')) out += '\n';
      continue;
    }
    // Placeholders within the line.
    for (std::size_t at = 0; at < line.size();) {
      const std::size_t open = line.find("${", at);
      if (open == std::string_view::npos) {
        out += line.substr(at);
        break;
      }
      const std::size_t close = line.find('}', open);
      if (close == std::string_view::npos) throw std::logic_error("syidl: unclosed template placeholder");
      out += line.substr(at, open - at);
      out += *find_field(fields, line.substr(open + 2, close - open - 2));
      at = close + 1;
    }
  }
  return out;
}

}  // namespace switchyard::idl::cxx
