#include "orb/adapter/operation_dispatch.h"

#include <vector>

namespace switchyard::adapter {

const operation_dispatch& operation_dispatch_cache::table_for(const interface_info& interface,
                                                              demux_strategy strategy) {
  strategy = compiled_operation_demux.resolve(strategy);
  std::lock_guard lock(mutex_);
  // Dynamic servants carry an interface_info each (their ids differ) and list no operation: they
  // share one empty table rather than leave one per servant, keyed by an address that is freed
  // with the servant and may come back as another interface's.
  const interface_info* key = &interface;
  static const interface_info no_operations{};
  if (interface.any_operation != nullptr && interface.operations.empty()) key = &no_operations;
  auto& slot = tables_[{key, strategy}];
  if (!slot) {
    std::vector<demux::operation<skeleton_function>> ops;
    ops.reserve(interface.operations.size());
    for (const auto& op : interface.operations) ops.push_back({op.name, op.skeleton});
    std::span<const demux::operation<skeleton_function>> list(ops);
    // The generated gperf lookup serves the perfect strategy (front or fixed); the others build
    // their own table from the names.
    if constexpr (!compiled_operation_demux.is_fixed) {
      slot = std::make_unique<operation_dispatch>(strategy, list, interface.perfect_lookup);
    } else if constexpr (compiled_operation_demux.strategy == demux_strategy::perfect) {
      slot = std::make_unique<operation_dispatch>(list, interface.perfect_lookup);
    } else {
      slot = std::make_unique<operation_dispatch>(list);
    }
  }
  return *slot;
}

}  // namespace switchyard::adapter
