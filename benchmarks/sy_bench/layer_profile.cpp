#include "benchmarks/sy_bench/layer_profile.h"

#include <cstdlib>
#include <sstream>
#include <vector>

#include "switchyard/instrument.h"

namespace switchyard::bench {

bool layer_profile::empty() const noexcept {
  for (auto& [key, cell] : cells)
    if (cell.calls != 0) return false;
  return true;
}

std::uint64_t layer_profile::calls(std::string_view layer) const {
  std::uint64_t n = 0;
  for (auto& [key, cell] : cells)
    if (key.first == layer) n += cell.calls;
  return n;
}

double layer_profile::mean_ns(std::string_view layer) const {
  std::uint64_t n = 0;
  double us = 0;
  for (auto& [key, cell] : cells)
    if (key.first == layer) n += cell.calls, us += cell.total_us;
  return n == 0 ? -1.0 : us * 1000.0 / static_cast<double>(n);
}

double layer_profile::total_us() const {
  double us = 0;
  for (auto& [key, cell] : cells) us += cell.total_us;
  return us;
}

layer_profile& layer_profile::operator+=(const layer_profile& other) {
  for (auto& [key, cell] : other.cells) {
    auto& sum = cells[key];
    sum.calls += cell.calls;
    sum.total_us += cell.total_us;
  }
  return *this;
}

layer_profile parse_layer_profile(std::string_view text) {
  layer_profile profile;
  std::istringstream lines{std::string(text)};
  std::string line;
  while (std::getline(lines, line)) {
    for (char& c : line)
      if (c == ',') c = ' ';
    std::istringstream fields(line);
    std::string layer, strategy, calls, total;
    if (!(fields >> layer >> strategy >> calls >> total)) continue;
    if (!instrument::try_parse_layer(layer) || !instrument::try_parse_strategy(strategy)) continue;
    char* end = nullptr;
    auto n = std::strtoull(calls.c_str(), &end, 10);
    if (*end != '\0') continue;
    double us = std::strtod(total.c_str(), &end);
    if (*end != '\0') continue;
    auto& cell = profile.cells[{layer, strategy}];
    cell.calls += n;
    cell.total_us += us;
  }
  return profile;
}

layer_profile operator-(const layer_profile& after, const layer_profile& before) {
  layer_profile diff = after;
  for (auto& [key, cell] : before.cells) {
    auto& d = diff.cells[key];
    d.calls = d.calls >= cell.calls ? d.calls - cell.calls : 0;
    d.total_us = d.total_us >= cell.total_us ? d.total_us - cell.total_us : 0;
  }
  return diff;
}

}  // namespace switchyard::bench
