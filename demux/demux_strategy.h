// The demultiplexing strategies' names, as -ORBServantDemux / -ORBOperationDemux, sy-bench and
// the reports spell them. The enum and demux_choice are public (<switchyard/demux_strategy.h>).
#pragma once

#include <optional>
#include <string_view>

#include "switchyard/demux_strategy.h"

namespace switchyard::demux {

using switchyard::all_demux_strategies;
using switchyard::demux_choice;
using switchyard::demux_strategy;

// "linear", "binary", "dynamic", "perfect", "perfect-fast", "active".
std::string_view to_string(demux_strategy strategy) noexcept;

// Every name, for messages: "linear, binary, dynamic, perfect, perfect-fast or active".
std::string_view demux_strategy_names() noexcept;

// The strategy named exactly (lower case), or nothing.
std::optional<demux_strategy> try_parse_demux_strategy(std::string_view name) noexcept;

// As above, but a bad name raises BAD_PARAM (minor bad_option) whose message names what was given
// and what is accepted.
demux_strategy parse_demux_strategy(std::string_view name);

}  // namespace switchyard::demux
