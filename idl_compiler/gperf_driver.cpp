#include "idl_compiler/gperf_driver.h"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace switchyard::idl {

namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

bool executable(const std::string& path) { return !path.empty() && access(path.c_str(), X_OK) == 0; }

std::string temp_dir() {
  const char* t = std::getenv("TMPDIR");
  return t != nullptr && *t != '\0' ? t : "/tmp";
}

// gperf 3.1's C++ output indexes asso_values with `static_cast<unsigned char>(str[i]+inc)`: the
// sum is cut to 8 bits, while the table (256 + inc entries) was computed with the byte plus inc.
// A key with a byte >= 256 - inc at that position is then not found by its own lookup. Cast the
// byte, then add: the index stays below 256 + inc for any byte, bad input included.
// Who hits it: gperf picks an alpha increment when two keys have the same characters at its
// positions in another order, and raises it until no such pair is left. Binary object ids reach
// any byte value (a third of benchmarks/demux/servant_ids_1000.txt's were not found). Operation
// names are IDL identifiers, ASCII '0'..'z' (48..122), so only an increment >= 134 truncates:
// common lists stay far below (op_0..op_999: 25, 1000 long names differing late: 26, 1000
// permutations of 8 letters: 18, 3969 two-character names: 74), but names built so that every
// pairwise offset of three positions collides force one >= 146, and gperf 3.1 then lost 309 of
// the 708 operations of tests/idl_compiler/backend/alpha_increment_ops.idl. Hence for every table.
// (A scan, not std::regex: libstdc++ 12's regex warns under the sanitizers.)
std::string widen_alpha_increments(const std::string& code) {
  const std::string cast = "static_cast<unsigned char>(str[";
  std::string out;
  std::size_t from = 0;
  for (std::size_t at = code.find(cast); at != std::string::npos; at = code.find(cast, from)) {
    const std::size_t index_end = code.find(']', at + cast.size());  // str[...] ends here
    std::size_t digits_end = index_end == std::string::npos ? index_end : index_end + 2;
    while (digits_end < code.size() && std::isdigit(static_cast<unsigned char>(code[digits_end]))) ++digits_end;
    const bool truncating = index_end != std::string::npos && index_end + 2 < digits_end &&
                            code[index_end + 1] == '+' && digits_end < code.size() && code[digits_end] == ')';
    if (!truncating) {
      out.append(code, from, at + cast.size() - from);
      from = at + cast.size();
      continue;
    }
    // static_cast<unsigned char>(str[i]+inc)  ->  (static_cast<unsigned char>(str[i])+inc)
    out.append(code, from, at - from);
    out += "(static_cast<unsigned char>(str[" + code.substr(at + cast.size(), index_end - at - cast.size()) + "])+" +
           code.substr(index_end + 2, digits_end - index_end - 2) + ")";
    from = digits_end + 1;
  }
  out.append(code, from, std::string::npos);
  return out;
}

}  // namespace

std::string find_gperf() {
  if (const char* env = std::getenv("SYIDL_GPERF"); env != nullptr)
    return executable(env) ? std::string(env) : std::string();
#ifdef SYIDL_GPERF
  if (executable(SYIDL_GPERF)) return SYIDL_GPERF;
#endif
  if (const char* path = std::getenv("PATH"); path != nullptr) {
    std::istringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':'))
      if (!dir.empty() && executable(dir + "/gperf")) return dir + "/gperf";
  }
  return {};
}

std::optional<std::string> make_gperf_lookup(const std::string& gperf, const std::string& class_name,
                                             const std::vector<std::string>& keys, std::string& error) {
  if (keys.empty()) {
    return "struct " + class_name + " {\n  static int index_of(const char*, std::size_t) noexcept { return -1; }\n};\n";
  }
  std::string input_path = temp_dir() + "/syidl_gperf_XXXXXX";
  int fd = mkstemp(input_path.data());
  if (fd < 0) {
    error = "cannot create a temporary file for gperf in " + temp_dir();
    return std::nullopt;
  }
  close(fd);
  const std::string impl = class_name + "_gperf";
  {
    std::ofstream in(input_path);
    in << "%struct-type\n%language=C++\n%define class-name " << impl
       << "\n%define lookup-function-name lookup\n%readonly-tables\n%compare-lengths\n%enum\n"
          "%null-strings\nstruct "
       << impl << "_entry { const char* name; int index; };\n%%\n";
    for (std::size_t i = 0; i < keys.size(); ++i) in << keys[i] << ", " << i << "\n";
  }
  const std::string error_path = input_path + ".err";
  const std::string command = shell_quote(gperf) + " " + shell_quote(input_path) + " 2>" + shell_quote(error_path);
  std::string output;
  int status = -1;
  if (FILE* pipe = popen(command.c_str(), "r"); pipe != nullptr) {
    char buffer[4096];
    std::size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
    status = pclose(pipe);
  }
  std::string messages;
  {
    std::ifstream err(error_path);
    std::ostringstream text;
    text << err.rdbuf();
    messages = text.str();
  }
  std::remove(input_path.c_str());
  std::remove(error_path.c_str());
  if (status != 0) {
    error = "gperf (" + gperf + ") failed" + (messages.empty() ? std::string() : ": " + messages);
    return std::nullopt;
  }
  // #line directives would point at the temporary input, and the command line names it: drop
  // them, so that the same IDL always gives the same code (docs/examples/greeter/generated).
  std::istringstream lines(output);
  std::string line, code;
  while (std::getline(lines, line))
    if (line.rfind("#line", 0) != 0 && line.rfind("/* Command-line:", 0) != 0) code += line + "\n";
  code = widen_alpha_increments(code);
  if (code.find(impl + "::lookup") == std::string::npos) {
    error = "unexpected gperf output (no lookup function)";
    return std::nullopt;
  }
  return "#pragma GCC diagnostic push\n"
         "#pragma GCC diagnostic ignored \"-Wmissing-field-initializers\"\n"
         "#pragma GCC diagnostic ignored \"-Wunused-parameter\"\n" +
         code +
         "#pragma GCC diagnostic pop\n\n"
         "struct " +
         class_name +
         " {\n"
         "  static int index_of(const char* name, std::size_t length) noexcept {\n"
         "    const auto* e = " +
         impl +
         "::lookup(name, length);\n"
         "    return e == nullptr ? -1 : e->index;\n"
         "  }\n"
         "};\n";
}

}  // namespace switchyard::idl
