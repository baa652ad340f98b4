// `sy-bench report DIR`, and the report every experiment draws at its end.
#include <cstdlib>
#include <iostream>

#include "benchmarks/sy_bench/driver_options.h"
#include "benchmarks/sy_bench/experiments.h"

#ifndef SY_BENCH_REPORT_SCRIPT
#define SY_BENCH_REPORT_SCRIPT "benchmarks/report/sy_bench_report.py"
#endif

namespace switchyard::bench {

bool run_report(const std::filesystem::path& dir) {
  // Debian's python3-matplotlib lives under /usr/bin/python3 (a python3 on PATH may lack it).
  std::string python = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  std::string script = SY_BENCH_REPORT_SCRIPT;
  if (!std::filesystem::exists(script)) {
    std::cerr << "report: " << script << " not found: CSV only\n";
    return false;
  }
  auto quote = [](const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  std::string command = python + " " + quote(script) + " " + quote(dir.string()) + " >&2";
  int status = std::system(command.c_str());
  if (status != 0) {
    std::cerr << "report: " << command << " failed (status " << status << ")\n";
    return false;
  }
  return true;
}

int report_main(std::vector<std::string> args) {
  arg_parser parser(std::move(args));
  auto dirs = parser.positionals();
  parser.finish();
  if (dirs.size() != 1) throw usage_error("report takes one directory");
  if (!std::filesystem::is_directory(dirs[0])) throw usage_error("report: no directory '" + dirs[0] + "'");
  return run_report(dirs[0]) ? 0 : 1;
}

}  // namespace switchyard::bench
