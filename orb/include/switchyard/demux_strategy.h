// The demultiplexing strategies an object adapter chooses between, for servants (object key to
// servant) and for operations (name to skeleton): the four of the TAO paper (section 5.3, figure
// 30) and two more (docs/demux.md). Every strategy serves both lookups.
#pragma once

#include <array>
#include <cstdint>

namespace switchyard {

enum class demux_strategy : std::uint8_t {
  linear,        // scan the entries in order
  binary,        // binary search over the keys kept sorted (ZeroC Ice's and tao_idl -H binary_search's dispatch)
  dynamic,       // hash table (boost::unordered_flat_map)
  perfect,       // perfect hash: gperf over keys known at build time, or built at run time
  perfect_fast,  // perfect hash on the length and two 8-byte windows of the key, one multiply
  active,        // the request carries the index; checked by a generation count or the name
};

// Every strategy once, in the order above (tests and benchmarks iterate over it).
inline constexpr std::array<demux_strategy, 6> all_demux_strategies = {
    demux_strategy::linear,  demux_strategy::binary,       demux_strategy::dynamic,
    demux_strategy::perfect, demux_strategy::perfect_fast, demux_strategy::active,
};

// A strategy fixed at compile time, or none (every strategy compiled in, the choice made at run
// time): what the meson options servant_demux / operation_demux say, as one typed constant
// (<switchyard/config.h>: compiled_servant_demux, compiled_operation_demux) that the adapter uses
// as a template argument. std::optional<demux_strategy> in spirit; a literal class of its own
// because std::optional cannot be a template argument.
struct demux_choice {
  bool is_fixed = false;
  demux_strategy strategy = demux_strategy::linear;  // meaningful only when is_fixed

  static constexpr demux_choice at_run_time() noexcept { return {}; }
  static constexpr demux_choice fixed(demux_strategy s) noexcept { return {true, s}; }
  // The strategy in force where `requested` was asked for: a fixed choice overrides it.
  constexpr demux_strategy resolve(demux_strategy requested) const noexcept { return is_fixed ? strategy : requested; }
  friend constexpr bool operator==(const demux_choice&, const demux_choice&) = default;
};

}  // namespace switchyard
