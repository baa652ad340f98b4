// The options every experiment subcommand shares, and a small parser for the rest: options in
// any order, -ORB options passed through to the ORBs (client and server).
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchmarks/sy_bench/process.h"

namespace switchyard::bench {

enum class preset { quick, standard, paper };

// Raised for a bad command line; main prints it with the usage line.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class arg_parser {
 public:
  // Splits the -ORB options (and their values) from the rest.
  explicit arg_parser(std::vector<std::string> args);
  bool flag(std::string_view name);
  std::optional<std::string> value(std::string_view name);
  std::vector<std::string> list(std::string_view name, std::vector<std::string> fallback);
  std::vector<std::size_t> number_list(std::string_view name, std::vector<std::size_t> fallback);
  std::optional<std::size_t> number(std::string_view name);
  // Arguments that are not options, in order (taken once).
  std::vector<std::string> positionals();
  // Raises usage_error for anything left over.
  void finish();
  const std::vector<std::string>& orb_args() const noexcept { return orb_args_; }

 private:
  std::vector<std::string> args_;
  std::vector<std::string> orb_args_;
};

struct common_options {
  std::filesystem::path out;
  preset size = preset::standard;
  pin_mode pin = pin_mode::same;
  std::string transport = "iiop";  // iiop | uiop
  bool collocated = false;
  std::vector<std::string> orb_args;
};

// --out, --quick, --paper, --pin, --transport, --collocated.
common_options parse_common(arg_parser& args);

// results/<yyyymmdd>-<git revision> (relative to the working directory).
std::filesystem::path default_out_dir();

std::string_view to_string(preset p) noexcept;

// Numbers for files: fixed, up to `digits` decimals, no trailing noise.
std::string format_number(double value, int digits = 3);

// Appends a line to DIR/run.txt saying what ran (the summary quotes it): subcommand, preset, pinning,
// transport, date, revision, CPUs, the command line.
void note_run(const common_options& options, const std::string& experiment, const std::string& detail);

// Splits "a,b,c".
std::vector<std::string> split(std::string_view text, char separator);

}  // namespace switchyard::bench
