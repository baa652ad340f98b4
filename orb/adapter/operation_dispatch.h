// Operation tables for the interfaces servants implement: built once per interface and strategy,
// shared by every servant of that interface. Internal to orb/adapter.
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "demux/operation_table.h"
#include "switchyard/config.h"
#include "switchyard/demux_strategy.h"
#include "switchyard/servant.h"

namespace switchyard::adapter {

// With -Doperation_demux=<fixed> this is that one table type, and no strategy switch remains.
using operation_dispatch = demux::operation_table_for<SWITCHYARD_OPERATION_DEMUX, skeleton_function>;

// Interface -> its table, per strategy. Thread-safe; tables never move once built.
class operation_dispatch_cache {
 public:
  const operation_dispatch& table_for(const interface_info& interface, demux_strategy strategy);

 private:
  std::mutex mutex_;
  std::unordered_map<const interface_info*, std::array<std::unique_ptr<operation_dispatch>, 4>> tables_;
};

}  // namespace switchyard::adapter
