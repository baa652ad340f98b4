// The server's per-layer probe table, read from the text the ORB dumps (the table or the CSV
// format of orb/include/switchyard/instrument.h), and the difference between two readings: the
// requests of one measured run.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace switchyard::bench {

struct layer_cell {
  std::uint64_t calls = 0;
  double total_us = 0;
};

struct layer_profile {
  // (layer, strategy) as the dump spells them: ("servant_demux", "perfect").
  std::map<std::pair<std::string, std::string>, layer_cell> cells;

  bool empty() const noexcept;
  // Nanoseconds per call of a layer, over every strategy; negative when the layer has no calls.
  double mean_ns(std::string_view layer) const;
  std::uint64_t calls(std::string_view layer) const;
  double total_us() const;
  // Adds another reading's calls and times cell by cell (the rounds of one measured cell).
  layer_profile& operator+=(const layer_profile& other);
};

// Lines that do not parse as a probe line (headers, totals, "not compiled in") are skipped.
layer_profile parse_layer_profile(std::string_view text);
layer_profile operator-(const layer_profile& after, const layer_profile& before);

}  // namespace switchyard::bench
