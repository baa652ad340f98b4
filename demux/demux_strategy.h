// The four demultiplexing strategies (TAO paper, section 5.3 and figure 30) and their names, as
// -ORBServantDemux / -ORBOperationDemux spell them.
#pragma once

#include <optional>
#include <string_view>

#include "switchyard/demux_strategy.h"

namespace switchyard::demux {

// The enum is public (switchyard/demux_strategy.h: adapter policies name it); demux/ adds the
// names and the parsing.
using switchyard::demux_strategy;

// "linear", "dynamic", "perfect", "active".
std::string_view to_string(demux_strategy strategy) noexcept;

// The strategy named exactly (lower case), or nothing.
std::optional<demux_strategy> try_parse_demux_strategy(std::string_view name) noexcept;

// As above, but a bad name raises BAD_PARAM (minor bad_option) whose message names what was given
// and what is accepted.
demux_strategy parse_demux_strategy(std::string_view name);

// The codes of SWITCHYARD_SERVANT_DEMUX / SWITCHYARD_OPERATION_DEMUX (<switchyard/config.h>).
inline constexpr int demux_code_runtime = 0;
inline constexpr int demux_code_linear = 1;
inline constexpr int demux_code_dynamic = 2;
inline constexpr int demux_code_perfect = 3;
inline constexpr int demux_code_active = 4;

}  // namespace switchyard::demux
