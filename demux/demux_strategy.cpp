#include "demux/demux_strategy.h"

#include <string>

#include <switchyard/exception.h>

namespace switchyard::demux {

std::string_view to_string(demux_strategy strategy) noexcept {
  switch (strategy) {
    case demux_strategy::linear:
      return "linear";
    case demux_strategy::binary:
      return "binary";
    case demux_strategy::dynamic:
      return "dynamic";
    case demux_strategy::perfect:
      return "perfect";
    case demux_strategy::perfect_fast:
      return "perfect-fast";
    case demux_strategy::active:
      return "active";
  }
  return "invalid";
}

std::string_view demux_strategy_names() noexcept { return "linear, binary, dynamic, perfect, perfect-fast or active"; }

std::optional<demux_strategy> try_parse_demux_strategy(std::string_view name) noexcept {
  for (auto s : all_demux_strategies) {
    if (name == to_string(s)) return s;
  }
  return std::nullopt;
}

demux_strategy parse_demux_strategy(std::string_view name) {
  if (auto s = try_parse_demux_strategy(name)) return *s;
  // Print bytes that are not printable ASCII as \xNN: the name may come from anywhere.
  std::string shown;
  for (unsigned char c : name.substr(0, 64)) {
    if (c >= 0x20 && c < 0x7f) {
      shown += static_cast<char>(c);
    } else {
      static constexpr char hex[] = "0123456789abcdef";
      shown += "\\x";
      shown += hex[c >> 4];
      shown += hex[c & 15];
    }
  }
  if (name.size() > 64) shown += "...";
  throw SystemException(
      SystemExceptionKind::BAD_PARAM, minor::bad_option, CompletionStatus::no,
      "unknown demultiplexing strategy '" + shown + "' (expected " + std::string(demux_strategy_names()) + ")");
}

}  // namespace switchyard::demux
