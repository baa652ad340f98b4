// The options every experiment subcommand shares, and a small parser for the rest: options in
// any order, -ORB options passed through to the ORBs (client and server).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchmarks/sy_bench/process.h"

namespace switchyard::bench {

class network_namespaces;

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
  std::string transport = "iiop";  // iiop | uiop | ssliop: the first of `transports`
  // latency, ttcp and handshake take a list (--transport iiop,ssliop): our ORB's and omniORB's
  // series are run over each; the others take one, iiop or uiop.
  std::vector<std::string> transports{"iiop"};
  // --tls-certs DIR (with ssliop): certificates to use instead of make-tls-certs' (tls_material.h).
  std::filesystem::path tls_certs;
  bool collocated = false;
  std::vector<std::string> orb_args;
  // --netns: servers in a network namespace of their own, this process and its clients in
  // another, joined by a veth pair, omniNames in a third; --link RATE[,DELAY] shapes the pair
  // (and implies --netns). set_up_network() makes them (network_namespaces.h).
  bool netns = false;
  std::string link;  // as given: "155mbit" or "155mbit,5ms"; empty: not shaped
  std::shared_ptr<network_namespaces> network;
};

// --out, --quick, --paper, --pin, --transport, --collocated, --netns, --link. `transport_list`:
// --transport is a list of iiop, uiop and ssliop (latency, ttcp, handshake); otherwise one of iiop
// and uiop.
common_options parse_common(arg_parser& args, bool transport_list = false);

// With --netns: makes the namespaces, the veth pair and omniNames, and moves this process into
// the clients' namespace (before any ORB or thread starts). Raises std::runtime_error saying what
// is missing (root, ip, tc, omniNames). Without --netns: nothing.
void set_up_network(common_options& options);

// The link the experiment's calls cross, for the CSVs' `link` column: "loopback", "veth", or
// the --link value.
std::string link_label(const common_options& options);

// results/<yyyymmdd>-<git revision> (relative to the working directory).
std::filesystem::path default_out_dir();

std::string_view to_string(preset p) noexcept;

// Numbers for files: fixed, up to `digits` decimals, no trailing noise.
std::string format_number(double value, int digits = 3);

// Appends a line to DIR/run.txt saying what ran (the summary quotes it): subcommand, preset, pinning,
// transport, date, revision, CPUs, the command line.
void note_run(const common_options& options, const std::string& experiment, const std::string& detail);

// --link RATE[,DELAY]: a rate tc(8) takes (155mbit, 1gbit, 800kbit, 100000bit) and an optional
// one-way delay (5ms, 200us, 1s). Raises usage_error naming what it could not read.
struct link_shape {
  std::uint64_t bits_per_second = 0;
  std::uint64_t delay_us = 0;  // 0: none (tbf); else netem
  std::string rate, delay;     // as tc spells them
};
link_shape check_link_shape(std::string_view text);

// Splits "a,b,c".
std::vector<std::string> split(std::string_view text, char separator);

}  // namespace switchyard::bench
