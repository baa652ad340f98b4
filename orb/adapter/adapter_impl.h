// One object adapter: its servant map (the chosen strategy), its activations, its children.
// Internal to orb/adapter; the public face is switchyard/object_adapter.h.
#pragma once

#include <atomic>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include <boost/unordered/unordered_flat_map.hpp>

#include "demux/servant_map.h"
#include "orb/adapter/operation_dispatch.h"
#include "switchyard/config.h"
#include "switchyard/object_adapter.h"

namespace switchyard::adapter {

class adapter_registry;

// One active object. Owned by its adapter; the servant map holds a pointer to it.
struct activation {
  std::shared_ptr<servant> target;
  const operation_dispatch* operations;
  std::string object_id;
  std::string object_key;
};

// With -Dservant_demux=<fixed> this is that one map type, and no strategy switch remains.
using servant_map_type = demux::servant_map_for<compiled_servant_demux, activation*>;
static_assert(demux::servant_map_interface<servant_map_type>);

class adapter_impl {
 public:
  adapter_impl(adapter_registry& registry, std::uint32_t index, adapter_impl* parent, std::string name,
               demux_strategy servant_demux, demux_strategy operation_demux,
               const object_id_table* object_ids = nullptr);

  object_adapter& handle() noexcept { return handle_; }
  const std::string& name() const noexcept { return name_; }
  std::uint32_t index() const noexcept { return index_; }
  demux_strategy servant_demux() const noexcept { return servant_demux_; }
  demux_strategy operation_demux() const noexcept { return operation_demux_; }
  // The request path: who may call (null: anyone). Policies set are kept for the adapter's life,
  // so a request that read the pointer can still use it after a change.
  const access_policy* access() const noexcept { return access_.load(std::memory_order_acquire); }
  void set_access(std::optional<access_policy> policy);

  object_adapter& create_child(std::string_view name, const adapter_policies& policies);
  object_adapter* find_child(std::string_view name) noexcept;

  object_ref activate(std::string_view object_id, std::shared_ptr<servant> target, bool system_id);
  bool deactivate(std::string_view object_id);
  bool deactivate_key(std::string_view object_key);
  void deactivate_all() noexcept;
  object_ref reference_to(std::string_view object_id) const;
  std::shared_ptr<servant> servant_of(std::string_view object_id) const;
  // The object key of an active id (empty if none): what requests for it carry.
  std::string key_of(std::string_view object_id) const;
  std::size_t active_count() const noexcept;
  std::size_t servant_map_bytes() const noexcept;
  std::string next_system_id();
  // A build-time id table for the perfect servant map; only while no object is active.
  void use_object_ids(const object_id_table& table);
  const object_id_table* object_ids() const noexcept;

  // The request path: the activation for the servant part of a key, copied out under the lock.
  bool find(std::string_view servant_part, std::shared_ptr<servant>& target,
            const operation_dispatch*& operations) const;

 private:
  object_ref make_reference(const activation& a) const;
  // With active demultiplexing the servant part is the map's 8-octet slot-and-generation key (a
  // hint) followed by the object id; otherwise the object id alone.
  bool uses_active_keys() const noexcept;
  // The activation a servant part names, or nullptr. Active keys: the hinted slot when it holds
  // that id, else the id by hash (the hint is stale or forged). Caller holds mutex_.
  const activation* lookup(std::string_view servant_part) const noexcept;

  std::atomic<const access_policy*> access_{nullptr};
  std::vector<std::unique_ptr<const access_policy>> access_kept_;  // guarded by mutex_

  adapter_registry& registry_;
  std::uint32_t index_;
  adapter_impl* parent_;
  std::string name_;
  demux_strategy servant_demux_;
  demux_strategy operation_demux_;
  object_adapter handle_;

  mutable std::shared_mutex mutex_;    // guards everything below
  const object_id_table* object_ids_;  // nullptr: none
  servant_map_type servants_;
  boost::unordered_flat_map<std::string, std::unique_ptr<activation>, demux::key_hash, demux::key_equal> by_id_;
  std::vector<adapter_impl*> children_;
  std::uint64_t next_system_id_ = 0;
};

}  // namespace switchyard::adapter
