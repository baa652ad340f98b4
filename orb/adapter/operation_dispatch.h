// Operation tables for the interfaces servants implement: built once per interface and strategy,
// shared by every servant of that interface. Internal to orb/adapter.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "demux/operation_table.h"
#include "switchyard/config.h"
#include "switchyard/demux_strategy.h"
#include "switchyard/servant.h"

namespace switchyard::adapter {

// With -Doperation_demux=<fixed> this is that one table type, and no strategy switch remains.
using operation_dispatch = demux::operation_table_for<compiled_operation_demux, skeleton_function>;
static_assert(demux::operation_table_interface<operation_dispatch>);

// Interface -> its table, per strategy. Thread-safe; tables never move once built.
class operation_dispatch_cache {
 public:
  // The table of `interface` under `strategy` (a strategy fixed at compile time overrides it),
  // built on first use: at activation, never on the request path.
  const operation_dispatch& table_for(const interface_info& interface, demux_strategy strategy);

 private:
  std::mutex mutex_;
  std::map<std::pair<const interface_info*, demux_strategy>, std::unique_ptr<operation_dispatch>> tables_;
};

}  // namespace switchyard::adapter
