// Every object adapter of one ORB, found by the index inside our object keys, and the request
// lookup the server loop calls: object key and operation to servant and skeleton. Internal to
// orb/adapter and orb/core.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include <boost/unordered/unordered_flat_map.hpp>

#include "demux/key_hash.h"
#include "orb/adapter/operation_dispatch.h"
#include "switchyard/object.h"
#include "switchyard/object_adapter.h"

namespace switchyard::adapter {

class adapter_impl;

// Makes object references for the adapters; the ORB core implements it (it knows the endpoints
// and the IOR format, which the adapter does not).
class reference_factory {
 public:
  virtual ~reference_factory();
  virtual object_ref make_reference(std::string_view repository_id, std::string_view object_key) = 0;
};

// What a request resolves to, and the strategies of the adapter that served it (the ORB's
// defaults when no adapter did), for the instrumentation's labels.
struct dispatch_target {
  std::shared_ptr<servant> target;  // null for built-ins answered without a servant
  skeleton_function skeleton = nullptr;
  demux_strategy servant_demux = demux_strategy::active;
  demux_strategy operation_demux = demux_strategy::active;
  const access_policy* access = nullptr;  // the adapter's: who may call (null: anyone)
};

enum class lookup_status {
  found,
  no_object,     // OBJECT_NOT_EXIST
  no_operation,  // BAD_OPERATION
};

class adapter_registry {
 public:
  adapter_registry(reference_factory& references, demux_strategy servant_demux, demux_strategy operation_demux);
  ~adapter_registry();
  adapter_registry(const adapter_registry&) = delete;
  adapter_registry& operator=(const adapter_registry&) = delete;

  object_adapter& root() noexcept;

  // The request path in two steps, timed apart by the instrumentation: the servant for
  // `object_key` (with its interface's operation table), then the skeleton for the operation (by
  // `operation_index` when the client sent one, else by name). Built-in operations (_is_a,
  // _non_existent, _repository_id, _interface) are found when the interface has no such name.
  lookup_status find_servant(std::string_view object_key, std::string_view operation, dispatch_target& out,
                             const operation_dispatch*& operations);
  static lookup_status find_operation(const operation_dispatch& operations, std::string_view operation,
                                      std::uint32_t operation_index, dispatch_target& out) noexcept;
  // Both steps.
  lookup_status find(std::string_view object_key, std::string_view operation, std::uint32_t operation_index,
                     dispatch_target& out);

  // The ORB's strategies (the root adapter's; a fixed compile-time choice overrides the options).
  demux_strategy servant_demux() const noexcept { return servant_demux_; }
  demux_strategy operation_demux() const noexcept { return operation_demux_; }

  // Counts deactivations in any adapter of this ORB: a direct collocated binding
  // (-ORBCollocation direct) that saw another count looks its servant up again.
  const std::atomic<std::uint64_t>& deactivations() const noexcept { return deactivations_; }
  void note_deactivation() noexcept { deactivations_.fetch_add(1, std::memory_order_release); }

  // Deactivates every object of every adapter (ORB::destroy).
  void deactivate_all() noexcept;

  // Whether `object_key` is one of this registry's keys (an adapter's, or a plain key bound to
  // one), active or not: a reference with it and one of this ORB's endpoints is collocated.
  bool is_own_key(std::string_view object_key) const;

  // Whether `object_key` names an active object (a LocateRequest).
  bool object_exists(std::string_view object_key);

  // Binds a plain object key (corbaloc::host:port/Name) to one of our object keys.
  void bind_key(std::string_view plain_key, std::string_view object_key);
  void unbind_key(std::string_view plain_key);

  // For adapter_impl.
  adapter_impl& add_adapter(adapter_impl* parent, std::string_view name, const adapter_policies& policies);
  reference_factory& references() const noexcept { return references_; }
  operation_dispatch_cache& operation_tables() noexcept { return operation_tables_; }

 private:
  reference_factory& references_;
  demux_strategy servant_demux_;
  demux_strategy operation_demux_;
  operation_dispatch_cache operation_tables_;
  // The most adapters one ORB holds: their table never moves, so requests find an adapter with
  // one bounds check and one atomic load, without a lock.
  static constexpr std::size_t max_adapters = 4096;

  mutable std::shared_mutex mutex_;                            // guards owned_adapters_ (writers) and plain_keys_
  std::vector<std::unique_ptr<adapter_impl>> owned_adapters_;  // by index; never shrinks
  std::unique_ptr<std::atomic<adapter_impl*>[]> adapters_;     // the same, read without the lock
  std::atomic<std::uint32_t> adapter_count_{0};
  std::atomic<std::uint64_t> deactivations_{0};
  boost::unordered_flat_map<std::string, std::string, demux::key_hash, demux::key_equal>
      plain_keys_;  // plain key -> our key
};

}  // namespace switchyard::adapter
