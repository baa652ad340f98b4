#include "benchmarks/sy_bench/driver_options.h"

#include <unistd.h>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <stdexcept>

namespace switchyard::bench {

namespace {

// "155", "1.5" and a unit: the value in the unit's base (bits or microseconds), or nothing.
std::optional<std::uint64_t> scaled(std::string_view text, std::initializer_list<std::pair<const char*, double>> units,
                                    bool unit_required) {
  std::size_t digits = 0;
  while (digits < text.size() && (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.'))
    ++digits;
  if (digits == 0) return std::nullopt;
  double value = 0;
  try {
    std::size_t used = 0;
    value = std::stod(std::string(text.substr(0, digits)), &used);
    if (used != digits) return std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::string unit(text.substr(digits));
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  double factor = 0;
  if (unit.empty() && !unit_required) factor = 1;
  for (auto& [name, f] : units)
    if (unit == name) factor = f;
  if (factor == 0 || !(value > 0) || value * factor > 1e15) return std::nullopt;
  return static_cast<std::uint64_t>(std::llround(value * factor));
}

}  // namespace

link_shape check_link_shape(std::string_view text) {
  link_shape shape;
  auto comma = text.find(',');
  std::string_view rate = text.substr(0, comma);
  auto bits = scaled(rate, {{"bit", 1}, {"kbit", 1e3}, {"mbit", 1e6}, {"gbit", 1e9}, {"tbit", 1e12}}, false);
  if (!bits || *bits < 8000)
    throw usage_error("--link: expected a rate as tc spells it (155mbit, 1gbit, 800kbit; at least 8kbit), got '" +
                      std::string(rate) + "'");
  shape.bits_per_second = *bits;
  shape.rate = std::string(rate);
  if (comma != std::string_view::npos) {
    std::string_view delay = text.substr(comma + 1);
    auto us = scaled(delay, {{"us", 1}, {"usec", 1}, {"ms", 1e3}, {"msec", 1e3}, {"s", 1e6}, {"sec", 1e6}}, true);
    if (!us || *us > 10'000'000)
      throw usage_error("--link: expected a delay after the comma (5ms, 200us, 1s; at most 10s), got '" +
                        std::string(delay) + "'");
    shape.delay_us = *us;
    shape.delay = std::string(delay);
  }
  return shape;
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  while (true) {
    auto at = text.find(separator);
    auto one = text.substr(0, at);
    if (!one.empty()) parts.emplace_back(one);
    if (at == std::string_view::npos) break;
    text.remove_prefix(at + 1);
  }
  return parts;
}

arg_parser::arg_parser(std::vector<std::string> args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i].starts_with("-ORB")) {
      args_.push_back(args[i]);
      continue;
    }
    orb_args_.push_back(args[i]);
    bool optional_value = args[i] == "-ORBInstrument";
    if (i + 1 < args.size() && !args[i + 1].starts_with("-ORB") &&
        (!optional_value || args[i + 1] == "0" || args[i + 1] == "1"))
      orb_args_.push_back(args[++i]);
  }
}

bool arg_parser::flag(std::string_view name) {
  bool found = false;
  for (auto it = args_.begin(); it != args_.end();) {
    if (*it == name) {
      found = true;
      it = args_.erase(it);
    } else {
      ++it;
    }
  }
  return found;
}

std::optional<std::string> arg_parser::value(std::string_view name) {
  std::optional<std::string> result;
  for (std::size_t i = 0; i < args_.size();) {
    std::string_view a = args_[i];
    if (a == name) {
      if (i + 1 >= args_.size()) throw usage_error(std::string(name) + " needs a value");
      result = args_[i + 1];
      args_.erase(args_.begin() + static_cast<long>(i), args_.begin() + static_cast<long>(i) + 2);
    } else if (a.size() > name.size() && a.starts_with(name) && a[name.size()] == '=') {
      result = std::string(a.substr(name.size() + 1));
      args_.erase(args_.begin() + static_cast<long>(i));
    } else {
      ++i;
    }
  }
  return result;
}

std::vector<std::string> arg_parser::list(std::string_view name, std::vector<std::string> fallback) {
  auto v = value(name);
  if (!v) return fallback;
  auto parts = split(*v, ',');
  if (parts.empty()) throw usage_error(std::string(name) + " needs at least one value");
  return parts;
}

static std::size_t parse_size(std::string_view name, std::string_view text) {
  std::size_t multiplier = 1;
  if (!text.empty() && (text.back() == 'K' || text.back() == 'k')) multiplier = 1024, text.remove_suffix(1);
  else if (!text.empty() && (text.back() == 'M' || text.back() == 'm')) multiplier = 1024 * 1024, text.remove_suffix(1);
  std::size_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size())
    throw usage_error(std::string(name) + ": expected a number, got '" + std::string(text) + "'");
  return n * multiplier;
}

std::vector<std::size_t> arg_parser::number_list(std::string_view name, std::vector<std::size_t> fallback) {
  auto v = value(name);
  if (!v) return fallback;
  std::vector<std::size_t> numbers;
  for (auto& part : split(*v, ',')) numbers.push_back(parse_size(name, part));
  if (numbers.empty()) throw usage_error(std::string(name) + " needs at least one value");
  return numbers;
}

std::optional<std::size_t> arg_parser::number(std::string_view name) {
  auto v = value(name);
  if (!v) return std::nullopt;
  return parse_size(name, *v);
}

std::vector<std::string> arg_parser::positionals() {
  std::vector<std::string> result;
  for (auto it = args_.begin(); it != args_.end();) {
    if (!it->starts_with("--")) {
      result.push_back(*it);
      it = args_.erase(it);
    } else {
      ++it;
    }
  }
  return result;
}

void arg_parser::finish() {
  if (!args_.empty()) throw usage_error("unknown argument '" + args_.front() + "'");
}

common_options parse_common(arg_parser& args, bool transport_list) {
  common_options options;
  bool quick = args.flag("--quick");
  bool paper = args.flag("--paper");
  if (quick && paper) throw usage_error("--quick and --paper exclude each other");
  options.size = quick ? preset::quick : paper ? preset::paper : preset::standard;
  if (auto pin = args.value("--pin")) {
    if (*pin == "same") options.pin = pin_mode::same;
    else if (*pin == "split") options.pin = pin_mode::split;
    else if (*pin == "none") options.pin = pin_mode::none;
    else throw usage_error("--pin: expected same, split or none, got '" + *pin + "'");
  }
  if (transport_list) {
    options.transports = args.list("--transport", {"iiop"});
    for (auto& t : options.transports)
      if (t != "iiop" && t != "uiop" && t != "ssliop")
        throw usage_error("--transport: expected iiop, ssliop or uiop (or a list: iiop,ssliop), got '" + t + "'");
    for (std::size_t i = 0; i < options.transports.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (options.transports[i] == options.transports[j])
          throw usage_error("--transport: '" + options.transports[i] + "' twice");
    options.transport = options.transports.front();
    if (auto certs = args.value("--tls-certs")) options.tls_certs = *certs;
  } else if (auto transport = args.value("--transport")) {
    if (*transport != "iiop" && *transport != "uiop")
      throw usage_error("--transport: expected iiop or uiop, got '" + *transport + "'");
    options.transport = *transport;
    options.transports = {*transport};
  }
  options.collocated = args.flag("--collocated");
  options.netns = args.flag("--netns");
  if (auto link = args.value("--link")) {
    check_link_shape(*link);  // usage_error for a rate or delay tc would not take
    options.link = *link;
    options.netns = true;
  }
  if (options.netns && options.collocated)
    throw usage_error("--netns puts the server in another network namespace: not with --collocated");
  if (options.netns && (options.transports.size() != 1 || options.transport != "iiop"))
    throw usage_error("--netns crosses a veth pair with TCP: --transport iiop only");
  auto out = args.value("--out");
  options.out = out ? std::filesystem::path(*out) : default_out_dir();
  options.orb_args = args.orb_args();
  return options;
}

std::filesystem::path default_out_dir() {
  char date[16] = "00000000";
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  std::strftime(date, sizeof date, "%Y%m%d", &local);
  std::string revision = "local";
  if (FILE* git = popen("git rev-parse --short HEAD 2>/dev/null", "r")) {
    char line[64] = {};
    if (std::fgets(line, sizeof line, git) != nullptr) {
      std::string text(line);
      while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
      if (!text.empty()) revision = text;
    }
    pclose(git);
  }
  return std::filesystem::path("results") / (std::string(date) + "-" + revision);
}

void note_run(const common_options& options, const std::string& experiment, const std::string& detail) {
  char when[32] = "";
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  std::strftime(when, sizeof when, "%Y-%m-%d %H:%M", &local);
  std::string revision = default_out_dir().filename().string();
  std::string load = "?";
  if (std::FILE* loadavg = std::fopen("/proc/loadavg", "r")) {
    char line[64] = {};
    if (std::fgets(line, sizeof line, loadavg) != nullptr) {
      load = line;
      load = load.substr(0, load.find(' ', load.find(' ', load.find(' ') + 1) + 1));
    }
    std::fclose(loadavg);
  }
  std::string transport_label;
  for (auto& t : options.transports) transport_label += (transport_label.empty() ? "" : ",") + t;
  std::FILE* out = std::fopen((options.out / "run.txt").c_str(), "a");
  if (out == nullptr) return;
  std::fprintf(
      out, "%s: sy-bench %s, preset %s, pin %s, %s, link %s, %ld CPUs online, load average %s, %s (date-revision %s)\n",
      when, experiment.c_str(), std::string(to_string(options.size)).c_str(),
      options.pin == pin_mode::same    ? "same"
      : options.pin == pin_mode::split ? "split"
                                       : "none",
      options.collocated ? "collocated" : transport_label.c_str(), link_label(options).c_str(),
      sysconf(_SC_NPROCESSORS_ONLN), load.c_str(), detail.c_str(), revision.c_str());
  std::fclose(out);
}

std::string link_label(const common_options& options) {
  if (!options.netns) return "loopback";
  return options.link.empty() ? "veth" : options.link;
}

std::string_view to_string(preset p) noexcept {
  switch (p) {
    case preset::quick:
      return "quick";
    case preset::standard:
      return "default";
    case preset::paper:
      return "paper";
  }
  return "default";
}

std::string format_number(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

}  // namespace switchyard::bench
