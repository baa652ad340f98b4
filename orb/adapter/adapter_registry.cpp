#include "orb/adapter/adapter_registry.h"

#include <mutex>

#include "orb/adapter/adapter_impl.h"
#include "orb/adapter/builtin_operations.h"
#include "orb/adapter/object_key.h"
#include "switchyard/exception.h"

namespace switchyard::adapter {

reference_factory::~reference_factory() = default;

adapter_registry::adapter_registry(reference_factory& references, demux_strategy servant_demux,
                                   demux_strategy operation_demux)
    : references_(references),
      servant_demux_(compiled_servant_demux.resolve(servant_demux)),
      operation_demux_(compiled_operation_demux.resolve(operation_demux)),
      adapters_(std::make_unique<std::atomic<adapter_impl*>[]>(max_adapters)) {
  add_adapter(nullptr, "RootPOA", adapter_policies{servant_demux, operation_demux, nullptr, std::nullopt});
}

adapter_registry::~adapter_registry() = default;

object_adapter& adapter_registry::root() noexcept { return owned_adapters_.front()->handle(); }

adapter_impl& adapter_registry::add_adapter(adapter_impl* parent, std::string_view name,
                                            const adapter_policies& policies) {
  std::unique_lock lock(mutex_);
  auto index = static_cast<std::uint32_t>(owned_adapters_.size());
  if (index == max_adapters)
    throw SystemException(SystemExceptionKind::IMP_LIMIT, minor::omg_minor(0), CompletionStatus::no,
                          "more than " + std::to_string(max_adapters) + " object adapters in one ORB");
  owned_adapters_.push_back(std::make_unique<adapter_impl>(
      *this, index, parent, std::string(name), policies.servant_demux.value_or(servant_demux_),
      policies.operation_demux.value_or(operation_demux_), policies.object_ids));
  adapter_impl& added = *owned_adapters_.back();
  adapters_[index].store(&added, std::memory_order_release);
  adapter_count_.store(index + 1, std::memory_order_release);
  return added;
}

void adapter_registry::bind_key(std::string_view plain_key, std::string_view object_key) {
  std::unique_lock lock(mutex_);
  plain_keys_.insert_or_assign(std::string(plain_key), std::string(object_key));
}

void adapter_registry::unbind_key(std::string_view plain_key) {
  std::unique_lock lock(mutex_);
  plain_keys_.erase(std::string(plain_key));
}

void adapter_registry::deactivate_all() noexcept {
  // Adapters are never removed, so the pointers stay good after the lock: each adapter takes its
  // own lock outside ours (create_child takes them the other way round).
  const std::uint32_t count = adapter_count_.load(std::memory_order_acquire);
  for (std::uint32_t i = 0; i < count; ++i) adapters_[i].load(std::memory_order_acquire)->deactivate_all();
}

bool adapter_registry::is_own_key(std::string_view object_key) const {
  if (auto parsed = parse_object_key(object_key))
    return parsed->adapter_index < adapter_count_.load(std::memory_order_acquire);
  std::shared_lock lock(mutex_);
  return plain_keys_.find(object_key) != plain_keys_.end();
}

bool adapter_registry::object_exists(std::string_view object_key) {
  dispatch_target target;
  // _is_a is answered for every object that exists, and for nothing else.
  return find(object_key, "_is_a", demux::no_operation_index, target) == lookup_status::found;
}

lookup_status adapter_registry::find_servant(std::string_view object_key, std::string_view operation,
                                             dispatch_target& out, const operation_dispatch*& operations) {
  // No adapter served: the ORB's strategies label the probes.
  auto nobody = [&] {
    out.servant_demux = servant_demux_;
    out.operation_demux = operation_demux_;
    return is_non_existent(operation) ? answer_non_existent(out) : lookup_status::no_object;
  };
  auto parsed = parse_object_key(object_key);
  std::string plain_target;
  if (!parsed) {
    // Not one of our keys: perhaps a plain name bound for corbaloc.
    std::shared_lock lock(mutex_);
    auto it = plain_keys_.find(object_key);
    if (it == plain_keys_.end()) return nobody();
    plain_target = it->second;
    lock.unlock();
    parsed = parse_object_key(plain_target);
    if (!parsed) return nobody();
  }

  // Adapters are never removed and their table never moves: no lock.
  adapter_impl* adapter = nullptr;
  if (parsed->adapter_index < adapter_count_.load(std::memory_order_acquire))
    adapter = adapters_[parsed->adapter_index].load(std::memory_order_acquire);
  if (adapter == nullptr) return nobody();
  out.servant_demux = adapter->servant_demux();
  out.operation_demux = adapter->operation_demux();
  out.access = adapter->access();
  if (!adapter->find(parsed->servant_part, out.target, operations))
    return is_non_existent(operation) ? answer_non_existent(out) : lookup_status::no_object;
  return lookup_status::found;
}

lookup_status adapter_registry::find_operation(const operation_dispatch& operations, std::string_view operation,
                                               std::uint32_t operation_index, dispatch_target& out) noexcept {
  if (const skeleton_function* skeleton = operations.find(operation_index, operation)) {
    out.skeleton = *skeleton;
    return lookup_status::found;
  }
  if (skeleton_function builtin = find_builtin_operation(operation)) {
    out.skeleton = builtin;
    return lookup_status::found;
  }
  // A dynamic servant takes every other operation (the DSI); only looked for after a miss.
  if (out.target != nullptr)
    if (skeleton_function any_operation = out.target->_interface().any_operation) {
      out.skeleton = any_operation;
      return lookup_status::found;
    }
  return lookup_status::no_operation;
}

lookup_status adapter_registry::find(std::string_view object_key, std::string_view operation,
                                     std::uint32_t operation_index, dispatch_target& out) {
  const operation_dispatch* operations = nullptr;
  lookup_status status = find_servant(object_key, operation, out, operations);
  // answer_non_existent already chose the skeleton (and left no table).
  if (status != lookup_status::found || operations == nullptr) return status;
  return find_operation(*operations, operation, operation_index, out);
}

}  // namespace switchyard::adapter
