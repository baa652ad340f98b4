#include "idl_compiler/gperf_driver.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace switchyard::idl {

namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

bool executable(const std::string& path) { return !path.empty() && access(path.c_str(), X_OK) == 0; }

std::string temp_dir() {
  const char* t = std::getenv("TMPDIR");
  return t != nullptr && *t != '\0' ? t : "/tmp";
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
    return "struct " + class_name +
           " {\n  static int index_of(const char*, std::size_t) noexcept { return -1; }\n};\n";
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
  const std::string command =
      shell_quote(gperf) + " " + shell_quote(input_path) + " 2>" + shell_quote(error_path);
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
  // #line directives would point at the temporary input: drop them.
  std::istringstream lines(output);
  std::string line, code;
  while (std::getline(lines, line))
    if (line.rfind("#line", 0) != 0) code += line + "\n";
  if (code.find(impl + "::lookup") == std::string::npos) {
    error = "unexpected gperf output (no lookup function)";
    return std::nullopt;
  }
  return "#pragma GCC diagnostic push\n"
         "#pragma GCC diagnostic ignored \"-Wmissing-field-initializers\"\n"
         "#pragma GCC diagnostic ignored \"-Wunused-parameter\"\n" +
         code +
         "#pragma GCC diagnostic pop\n"
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
