// syidl, Switchyard's IDL compiler: the command-line driver. Parses options, runs the front end
// on each file, then the back ends (when -o is given). Exit status: 0 success, 1 errors in the
// IDL, 2 bad usage.
#include <cctype>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "idl_compiler/back_end.h"
#include "idl_compiler/cxx_back_end.h"
#include "idl_compiler/front_end.h"
#include "idl_compiler/object_id_header.h"

namespace {

using namespace switchyard::idl;

constexpr const char* usage_text =
    "usage: syidl [options] file.idl...\n"
    "  -I dir          add dir to the #include search path (in order)\n"
    "  -D name[=value] define a preprocessor macro\n"
    "  -U name         undefine a macro given earlier with -D (or __SYIDL__, __OMNIIDL__)\n"
    "  -o outdir       generate code into outdir (runs the back ends; without -o syidl only\n"
    "                  checks the IDL, like omniidl without -b)\n"
    "  -H strategy     operation tables to generate: linear, dynamic, perfect, perfect-fast,\n"
    "                  active or all (default all; perfect-fast: the perfect lookup by the\n"
    "                  perfect-fast hash instead of gperf)\n"
    "  --ami           also asynchronous calls (CORBA Messaging's AMI): per interface I a reply\n"
    "                  handler AMI_IHandler, a poller AMI_IPoller, and sendc_/sendp_ stubs\n"
    "  --dump          print the checked main-file declarations with their repository ids\n"
    "  --object-ids LIST --name NAME [--namespace NS] -o FILE.h\n"
    "                  instead of IDL: a list of object ids (one a line) to a header with a\n"
    "                  gperf lookup NAME and the switchyard::object_id_table NAME_table, and\n"
    "                  the perfect-fast lookup NAME_fast with NAME_fast_table\n"
    "                  (NAME defaults to FILE's base name)\n"
    "  --dump-all      the same, with the declarations of #include'd files\n"
    "  --help          show this text\n"
    "  --version       show the version\n";

// The back ends, in the order they run.
std::vector<std::unique_ptr<BackEnd>> make_back_ends() {
  std::vector<std::unique_ptr<BackEnd>> back_ends;
  back_ends.push_back(make_cxx_back_end());
  return back_ends;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// Empty, or identifiers joined by "::".
bool is_scoped_identifier(const std::string& s) {
  std::size_t start = 0;
  while (start <= s.size() && !s.empty()) {
    const std::size_t end = s.find("::", start);
    if (!is_identifier(s.substr(start, end - start))) return false;
    if (end == std::string::npos) return true;
    start = end + 2;
  }
  return s.empty();
}

int usage_error(const std::string& message) {
  std::cerr << "syidl: error: " << message << "\n" << usage_text;
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  FrontEndOptions options;
  // Predefined: __SYIDL__, and __OMNIIDL__ because IDL files written for omniidl (Debian's COS
  // files among them) choose escaped identifiers and extra #includes with it. -U removes either.
  options.preprocessor.defines = {{"__SYIDL__", SYIDL_VERSION_NUMBER}, {"__OMNIIDL__", "1"}};
  BackEndOptions back_end_options;
  back_end_options.operation_tables = "all";
  std::vector<std::string> files;
  bool dump = false, dump_all = false, generate = false;
  ObjectIdHeaderOptions object_ids;  // --object-ids mode when list_path is set
  bool object_ids_mode = false;

  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    // -Xvalue or -X value
    const auto value = [&](std::string& out) -> bool {
      if (arg.size() > 2) {
        out = arg.substr(2);
        return true;
      }
      if (i + 1 >= argc) return false;
      out = argv[++i];
      return true;
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << usage_text;
      return 0;
    }
    if (arg == "--version" || arg == "-V") {
      std::cout << "syidl " << SYIDL_VERSION << " (Switchyard IDL compiler)\n";
      return 0;
    }
    // --object-ids LIST, --name NAME, --namespace NS (also --opt=value)
    const auto long_value = [&](const char* option, std::string& out) -> bool {
      const std::string prefix = std::string(option) + "=";
      if (arg.rfind(prefix, 0) == 0) {
        out = arg.substr(prefix.size());
        return true;
      }
      if (i + 1 >= argc) return false;
      out = argv[++i];
      return true;
    };
    const auto is_option = [&](const char* option) {
      return arg == option || arg.rfind(std::string(option) + "=", 0) == 0;
    };
    if (is_option("--object-ids")) {
      if (!long_value("--object-ids", object_ids.list_path) || object_ids.list_path.empty())
        return usage_error("--object-ids needs a list file");
      object_ids_mode = true;
    } else if (is_option("--name")) {
      if (!long_value("--name", object_ids.name) || object_ids.name.empty()) return usage_error("--name needs a name");
    } else if (is_option("--namespace")) {
      if (!long_value("--namespace", object_ids.name_space) || object_ids.name_space.empty())
        return usage_error("--namespace needs a namespace");
    } else if (arg == "--ami") {
      back_end_options.ami = true;
    } else if (arg == "--dump") {
      dump = true;
    } else if (arg == "--dump-all") {
      dump = dump_all = true;
    } else if (arg.rfind("-I", 0) == 0) {
      std::string dir;
      if (!value(dir) || dir.empty()) return usage_error("-I needs a directory");
      options.preprocessor.include_dirs.push_back(dir);
    } else if (arg.rfind("-D", 0) == 0) {
      std::string definition;
      if (!value(definition) || definition.empty()) return usage_error("-D needs a name");
      const std::size_t eq = definition.find('=');
      std::string name = definition.substr(0, eq);
      if (name.empty()) return usage_error("-D needs a name");
      options.preprocessor.defines.emplace_back(name, eq == std::string::npos ? "1" : definition.substr(eq + 1));
    } else if (arg.rfind("-U", 0) == 0) {
      std::string name;
      if (!value(name) || name.empty()) return usage_error("-U needs a name");
      auto& defines = options.preprocessor.defines;
      std::erase_if(defines, [&](const auto& d) { return d.first == name; });
    } else if (arg.rfind("-o", 0) == 0) {
      if (!value(back_end_options.output_dir) || back_end_options.output_dir.empty())
        return usage_error("-o needs a directory");
      generate = true;
    } else if (arg.rfind("-H", 0) == 0) {
      std::string strategy;
      if (!value(strategy)) return usage_error("-H needs a strategy");
      if (strategy != "linear" && strategy != "dynamic" && strategy != "perfect" && strategy != "perfect-fast" &&
          strategy != "active" && strategy != "all")
        return usage_error("unknown -H strategy '" + strategy +
                           "' (expected linear, dynamic, perfect, perfect-fast, active or all)");
      back_end_options.operation_tables = strategy;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return usage_error("unknown option '" + arg + "'");
    } else {
      files.push_back(arg);
    }
  }
  if (object_ids_mode) {
    if (!files.empty()) return usage_error("--object-ids takes no IDL files");
    if (!generate) return usage_error("--object-ids needs -o FILE.h");
    object_ids.output_path = back_end_options.output_dir;
    if (object_ids.name.empty()) {
      // The output's base name, without its extension.
      std::string base = object_ids.output_path.substr(object_ids.output_path.find_last_of('/') + 1);
      object_ids.name = base.substr(0, base.find('.'));
    }
    if (!is_identifier(object_ids.name)) return usage_error("--name '" + object_ids.name + "' is not a C++ identifier");
    if (!is_scoped_identifier(object_ids.name_space))
      return usage_error("--namespace '" + object_ids.name_space + "' is not a C++ namespace name");
    return generate_object_id_header(object_ids, std::cerr);
  }
  if (!object_ids.name.empty() || !object_ids.name_space.empty())
    return usage_error("--name and --namespace go with --object-ids");
  if (files.empty()) return usage_error("no input files");

  options.checks.generating = generate;
  std::vector<std::unique_ptr<BackEnd>> back_ends = make_back_ends();
  DiskFileSystem disk;
  bool failed = false;
  for (const std::string& file : files) {
    SourceManager sources;
    Diagnostics diagnostics(sources, &std::cerr);
    auto summarize = [&] {
      std::cerr << "syidl: " << diagnostics.error_count() << " error" << (diagnostics.error_count() == 1 ? "" : "s")
                << " in " << file << "\n";
      failed = true;
    };
    std::unique_ptr<Specification> specification = compile_file(file, disk, sources, diagnostics, options);
    if (diagnostics.error_count() != 0) {
      summarize();
      continue;
    }
    if (dump) std::cout << dump_declarations(*specification, dump_all);
    if (generate) {
      back_end_options.main_file = file;
      for (auto& back_end : back_ends)
        if (!back_end->generate(*specification, back_end_options, diagnostics)) failed = true;
      if (diagnostics.error_count() != 0) summarize();
    }
  }
  return failed ? 1 : 0;
}
