// syidl: what every file that writes C++ shares. One escaper for C++ string literals, and fill():
// templates written as raw string literals shaped like the code they produce, with named
// placeholders. Used by the C++ back end (cxx_*) and object_id_header. Includes only the standard
// library.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace switchyard::idl::cxx {

// A C++ string literal ("...") holding `bytes`: printable ASCII as it is; ", \, ? and every other
// byte as a three-digit octal escape, which never runs into the next character. gperf reads the
// same syntax.
std::string string_literal(std::string_view bytes);
// A char16_t string literal (u"...") holding the UTF-8 text `utf8` as UTF-16.
std::string u16_string_literal(std::string_view utf8);

// A template's placeholder name and the text that replaces it.
using Field = std::pair<std::string_view, std::string_view>;

// `text` with every ${name} replaced by its field's value. A line that holds nothing but
// indentation and one placeholder takes a block: each line of the value gets that indentation
// (empty lines none), a value that does not end in a newline gets one, and an empty value removes
// the line. One newline at the start of `text` is dropped, so that a template can begin on the
// line after R"(. A placeholder without a field is a bug in the generator: std::logic_error.
std::string fill(std::string_view text, std::initializer_list<Field> fields);

// `text` with `prefix` in front of every line that is not empty.
std::string indented(std::string_view text, std::string_view prefix);

// Pieces of code, each in a namespace ("A::B", or "" for the global one), separated by blank
// lines; a namespace is closed and another opened only where consecutive pieces differ.
class NamespacedCode {
 public:
  void add(const std::string& name_space, std::string_view code);
  // The code, the last namespace closed.
  std::string finish();

 private:
  void close();  // ends the open namespace, if any
  std::string text_;
  std::string open_;   // the namespace the last piece is in
  bool empty_ = true;  // no piece since the last close
};

}  // namespace switchyard::idl::cxx
