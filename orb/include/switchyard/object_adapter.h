// Object adapters: where servants are activated, and where requests find them. A root adapter
// per ORB, with named children; each has its own servant map and demultiplexing strategies.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "switchyard/demux_strategy.h"
#include "switchyard/object.h"
#include "switchyard/object_id_table.h"
#include "switchyard/security.h"
#include "switchyard/servant.h"

namespace switchyard {

namespace adapter {
class adapter_impl;
}

// What a child adapter may choose for itself; unset fields follow the ORB's -ORB options.
struct adapter_policies {
  std::optional<demux_strategy> servant_demux;
  std::optional<demux_strategy> operation_demux;
  // Object ids known at build time (syidl --object-ids): with servant demultiplexing `perfect`
  // they take fixed slots found by the generated gperf lookup, other ids the run-time perfect
  // hash. Ignored by the other strategies. Not inherited by children; must outlive the ORB
  // (the generated NAME_table constant does).
  const object_id_table* object_ids = nullptr;
  // Who may call its objects (switchyard/security.h); unset: the parent's policy, if any.
  std::optional<access_policy> access;
};

// Handles are owned by the ORB and live until it is destroyed. Thread-safe.
class object_adapter {
 public:
  const std::string& name() const noexcept;
  demux_strategy servant_demux() const noexcept;
  demux_strategy operation_demux() const noexcept;

  // A new child adapter; BAD_PARAM if one of that name exists.
  object_adapter& create_child(std::string_view name, const adapter_policies& policies = {});
  // The child of that name, or nullptr.
  object_adapter* find_child(std::string_view name) noexcept;

  // Activates with an id the adapter makes up (unique in this adapter for its lifetime).
  object_ref activate(std::shared_ptr<servant> servant);
  // Activates with the caller's id; BAD_PARAM (ObjectAlreadyActive) if the id is in use.
  object_ref activate_with_id(std::string_view object_id, std::shared_ptr<servant> servant);
  // Deactivates; later requests for it get OBJECT_NOT_EXIST. False if it was not active.
  bool deactivate(std::string_view object_id);
  bool deactivate(const object_ref& reference);

  // The reference for an active id (nil if none), and the servant behind it.
  object_ref reference_to(std::string_view object_id) const;
  std::shared_ptr<servant> servant_of(std::string_view object_id) const;
  std::size_t active_count() const noexcept;
  // Bytes the servant map uses (for the scalability reports).
  std::size_t servant_map_bytes() const noexcept;

  // Gives this adapter (the root adapter, typically) a build-time id table, as
  // adapter_policies::object_ids does for a child. Only while no object is active (BAD_PARAM
  // otherwise, or when the table is inconsistent: an id not found at its own position). Ignored
  // unless the servant demultiplexing is `perfect`. `table` must outlive the ORB.
  void use_object_ids(const object_id_table& table);
  // The table in use, or nullptr.
  const object_id_table* object_ids() const noexcept;

  // Lets only the callers `policy` allows call this adapter's objects, from the next request on
  // (switchyard/security.h); others get NO_PERMISSION without reaching a servant. Children
  // created afterwards inherit it unless their policies set their own.
  void set_access_policy(access_policy policy);
  // Lets every caller in again.
  void clear_access_policy();

  adapter::adapter_impl& impl() noexcept { return *impl_; }

 private:
  friend class adapter::adapter_impl;
  explicit object_adapter(adapter::adapter_impl* impl) noexcept : impl_(impl) {}
  adapter::adapter_impl* impl_;
};

}  // namespace switchyard
