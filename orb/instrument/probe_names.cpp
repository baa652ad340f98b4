// Names of layers and strategies, as reports and CSV spell them.
#include <switchyard/instrument.h>

namespace switchyard::instrument {
namespace {

constexpr std::array<std::string_view, layer_count> layer_names = {
    "read", "parse", "servant_demux", "operation_demux", "demarshal", "upcall", "marshal", "write",
};
// "-" rather than "none": the papers' tables leave the column empty where it does not apply.
constexpr std::array<std::string_view, strategy_count> strategy_names = {
    "-", "linear", "binary", "dynamic", "perfect", "perfect-fast", "active",
};

}  // namespace

std::string_view to_string(layer value) noexcept {
  auto index = static_cast<std::size_t>(value);
  return index < layer_names.size() ? layer_names[index] : std::string_view("?");
}

std::string_view to_string(strategy value) noexcept {
  auto index = static_cast<std::size_t>(value);
  return index < strategy_names.size() ? strategy_names[index] : std::string_view("?");
}

std::optional<layer> try_parse_layer(std::string_view name) noexcept {
  for (std::size_t i = 0; i < layer_names.size(); ++i) {
    if (layer_names[i] == name) return static_cast<layer>(i);
  }
  return std::nullopt;
}

std::optional<strategy> try_parse_strategy(std::string_view name) noexcept {
  for (std::size_t i = 0; i < strategy_names.size(); ++i) {
    if (strategy_names[i] == name) return static_cast<strategy>(i);
  }
  return std::nullopt;
}

}  // namespace switchyard::instrument
