#include "idl_compiler/object_id_header.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <unordered_map>

#include "demux/fast_lookup_source.h"
#include "idl_compiler/cxx_emitter.h"
#include "idl_compiler/gperf_driver.h"

namespace switchyard::idl {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One line's escapes undone; nullopt and `problem` set on a bad escape.
std::optional<std::string> unescape(const std::string& line, std::string& problem) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] != '\\') {
      out += line[i];
      continue;
    }
    if (i + 1 >= line.size()) {
      problem = "backslash at end of line";
      return std::nullopt;
    }
    const char e = line[++i];
    switch (e) {
      case '\\':
        out += '\\';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case '0':
        out += '\0';
        break;
      case 'x': {
        const int high = i + 1 < line.size() ? hex_digit(line[i + 1]) : -1;
        const int low = i + 2 < line.size() ? hex_digit(line[i + 2]) : -1;
        if (high < 0 || low < 0) {
          problem = "\\x needs two hex digits";
          return std::nullopt;
        }
        out += static_cast<char>(high * 16 + low);
        i += 2;
        break;
      }
      default:
        problem = std::string("unknown escape \\") + e;
        return std::nullopt;
    }
  }
  return out;
}

// For messages: the id as the list would write it, shortened.
std::string shown(const std::string& line) { return line.size() > 60 ? line.substr(0, 57) + "..." : line; }

}  // namespace

std::optional<std::vector<std::string>> read_object_id_list(const std::string& path, std::ostream& errors) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    errors << path << ": error: cannot read the object id list: " << std::strerror(errno) << "\n";
    return std::nullopt;
  }
  std::vector<std::string> ids;
  std::unordered_map<std::string, std::size_t> first_line;  // id -> line
  bool failed = false;
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::string problem;
    std::optional<std::string> id = line == "\"\"" ? std::string() : unescape(line, problem);
    if (!id) {
      errors << path << ":" << number << ": error: " << problem << "\n";
      failed = true;
      continue;
    }
    auto [it, added] = first_line.emplace(*id, number);
    if (!added) {
      errors << path << ":" << number << ": error: duplicate object id '" << shown(line) << "' (first on line "
             << it->second << ")\n";
      failed = true;
      continue;
    }
    ids.push_back(std::move(*id));
  }
  if (in.bad()) {
    errors << path << ": error: reading the object id list failed\n";
    return std::nullopt;
  }
  if (failed) return std::nullopt;
  return ids;
}

std::optional<std::string> object_id_header_text(const ObjectIdHeaderOptions& options,
                                                 const std::vector<std::string>& ids, std::string& error) {
  // gperf takes no empty keyword: the empty id (if listed) is answered by its length alone, and
  // gperf's positions skip it.
  long empty_index = -1;
  std::vector<std::string> gperf_keys;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i].empty()) empty_index = static_cast<long>(i);
    else gperf_keys.push_back(cxx::string_literal(ids[i]));
  }
  const std::string index_name = options.name + "_index";
  auto code = make_gperf_lookup(options.gperf, index_name, gperf_keys, error);
  if (!code) return std::nullopt;
  // gperf names its (temporary) input file: drop that line, so the same list gives the same header.
  if (const std::size_t at = code->find("/* Command-line:"); at != std::string::npos)
    code->erase(at, code->find('\n', at) - at + 1);
  // make_gperf_lookup has widened gperf 3.1's 8-bit alpha increments (gperf_driver.cpp): binary
  // ids hit that bug most (tests/adapter/binary_ids.txt).
  // gperf defines lookup() outside its class without `inline`: a header included by several
  // translation units needs it inline.
  const std::string impl = index_name + "_gperf";
  const std::string definition = "const struct " + impl + "_entry *\n" + impl + "::lookup";
  if (!gperf_keys.empty()) {
    const std::size_t at = code->find(definition);
    if (at == std::string::npos) {
      error = "unexpected gperf output (lookup() not where expected)";
      return std::nullopt;
    }
    code->insert(at, "inline ");
  }

  // The same ids for the perfect-fast hash (demux/fast_perfect_hash.h): its generator runs here.
  std::string fast;
  try {
    fast = demux::fast_lookup_struct(options.name + "_fast", ids);
  } catch (const std::exception& e) {
    error = std::string("perfect-fast hash: ") + e.what();
    return std::nullopt;
  }

  std::ostringstream out;
  out << "// Generated by syidl --object-ids from " << options.list_path << "; do not edit.\n"
      << "// " << ids.size() << " object ids perfect-hashed twice: by gperf (" << options.name << ", " << options.name
      << "_table) and by\n// the perfect-fast hash (" << options.name << "_fast, " << options.name
      << "_fast_table). A table goes to adapter_policies::object_ids\n"
      << "// or object_adapter::use_object_ids (docs/using.md).\n"
      << "#pragma once\n\n#include <cstddef>\n#include <cstdint>\n#include <cstring>\n"
      << "#include <string_view>\n\n"
      << "#include <switchyard/object_id_table.h>\n\n";
  if (!options.name_space.empty()) out << "namespace " << options.name_space << " {\n\n";
  out << "namespace detail_" << options.name << " {\nusing std::size_t;\n"
      << *code << "}  // namespace detail_" << options.name << "\n\n";
  out << "struct " << options.name << " {\n"
      << "  static constexpr std::size_t key_count = " << ids.size() << ";\n\n"
      << "  // The id's position in the list, or -1.\n"
      << "  static int index_of(const char* id, std::size_t length) noexcept {\n";
  if (empty_index >= 0) {
    out << "    if (length == 0) return " << empty_index << ";\n"
        << "    const int i = detail_" << options.name << "::" << index_name << "::index_of(id, length);\n"
        << "    return i < " << empty_index << " ? i : i + 1;  // the empty id is not gperf's\n";
  } else {
    out << "    return detail_" << options.name << "::" << index_name << "::index_of(id, length);\n";
  }
  out << "  }\n\n"
      << "  static std::string_view key_at(std::size_t index) noexcept {\n"
      << "    static constexpr std::string_view keys[] = {\n";
  if (ids.empty()) out << "      std::string_view(),\n";
  for (auto& id : ids) out << "      std::string_view(" << cxx::string_literal(id) << ", " << id.size() << "),\n";
  out << "    };\n"
      << "    return index < key_count ? keys[index] : std::string_view();\n"
      << "  }\n};\n\n"
      << "inline constexpr ::switchyard::object_id_table " << options.name
      << "_table = ::switchyard::make_object_id_table<" << options.name << ">();\n\n"
      << fast << "\n"
      << "inline constexpr ::switchyard::object_id_table " << options.name
      << "_fast_table = ::switchyard::make_object_id_table<" << options.name << "_fast>();\n";
  if (!options.name_space.empty()) out << "\n}  // namespace " << options.name_space << "\n";
  return out.str();
}

int generate_object_id_header(const ObjectIdHeaderOptions& options, std::ostream& errors) {
  auto ids = read_object_id_list(options.list_path, errors);
  if (!ids) return 1;
  ObjectIdHeaderOptions resolved = options;
  if (resolved.gperf.empty()) resolved.gperf = find_gperf();
  if (resolved.gperf.empty()) {
    errors << "syidl: error: gperf not found (set SYIDL_GPERF or put gperf on PATH)\n";
    return 1;
  }
  std::string error;
  auto text = object_id_header_text(resolved, *ids, error);
  if (!text) {
    errors << options.list_path << ": error: " << error << "\n";
    return 1;
  }
  // Written whole or not at all: a build never sees half a header.
  const std::string temporary = options.output_path + ".tmp";
  {
    std::ofstream file(temporary, std::ios::binary);
    file << *text;
    if (!file.flush()) {
      errors << options.output_path << ": error: cannot write: " << std::strerror(errno) << "\n";
      std::remove(temporary.c_str());
      return 1;
    }
  }
  if (std::rename(temporary.c_str(), options.output_path.c_str()) != 0) {
    errors << options.output_path << ": error: cannot write: " << std::strerror(errno) << "\n";
    std::remove(temporary.c_str());
    return 1;
  }
  return 0;
}

}  // namespace switchyard::idl
