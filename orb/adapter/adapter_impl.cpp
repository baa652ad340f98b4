#include "orb/adapter/adapter_impl.h"

#include <mutex>
#include <stdexcept>

#include "orb/adapter/adapter_registry.h"
#include "orb/adapter/object_key.h"
#include "switchyard/exception.h"

namespace switchyard::adapter {

namespace {

constexpr std::size_t active_key_size = demux::active_key_size;

[[noreturn]] void bad_param(std::string detail) {
  throw SystemException(SystemExceptionKind::BAD_PARAM, minor::omg_minor(0), CompletionStatus::no, std::move(detail));
}

// The servant map for a strategy, with the build-time ids when there are some (only the perfect
// map uses them; a fixed map type is built the same way, with no strategy switch).
servant_map_type make_map(demux_strategy strategy, const object_id_table* table) {
  if (table == nullptr) return demux::make_servant_map<compiled_servant_demux, activation*>(strategy);
  try {
    return demux::make_servant_map<compiled_servant_demux, activation*>(
        strategy, demux::id_list{table->key_count, table->index_of, table->key_at});
  } catch (const std::invalid_argument& e) {
    bad_param(std::string("object id table: ") + e.what());
  }
}

}  // namespace

adapter_impl::adapter_impl(adapter_registry& registry, std::uint32_t index, adapter_impl* parent, std::string name,
                           demux_strategy servant_demux, demux_strategy operation_demux,
                           const object_id_table* object_ids)
    : registry_(registry),
      index_(index),
      parent_(parent),
      name_(std::move(name)),
      // A strategy fixed at compile time overrides whatever the options said.
      servant_demux_(compiled_servant_demux.resolve(servant_demux)),
      operation_demux_(compiled_operation_demux.resolve(operation_demux)),
      handle_(this),
      object_ids_(object_ids),
      servants_(make_map(servant_demux_, object_ids)) {}

bool adapter_impl::uses_active_keys() const noexcept {
  if constexpr (compiled_servant_demux.is_fixed) return compiled_servant_demux.strategy == demux_strategy::active;
  else return servant_demux_ == demux_strategy::active;
}

// Inlined into find (the request path) and deactivate_key, its only callers.
[[gnu::always_inline]] inline const activation* adapter_impl::lookup(std::string_view servant_part) const noexcept {
  if (!uses_active_keys()) {
    activation* const* found = servants_.find(servant_part);
    return found == nullptr ? nullptr : *found;
  }
  // The slot-and-generation hint, then the id. A hint too short to be one names nothing.
  if (servant_part.size() < active_key_size) return nullptr;
  const std::string_view id = servant_part.substr(active_key_size);
  activation* const* hinted = servants_.find(servant_part.substr(0, active_key_size));
  if (hinted != nullptr && *hinted != nullptr && demux::same_key((*hinted)->object_id, id)) return *hinted;
  // The hint is stale (the object was deactivated, and perhaps activated again elsewhere) or
  // forged (it names another object's slot): the id decides, by hashing, as TAO falls back to
  // its user-id map. Never the hinted object unless its id is the key's.
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : it->second.get();
}

object_adapter& adapter_impl::create_child(std::string_view name, const adapter_policies& policies) {
  if (name.empty()) bad_param("adapter name is empty");
  std::unique_lock lock(mutex_);
  for (auto* child : children_)
    if (child->name_ == name) bad_param("adapter '" + std::string(name) + "' exists already (AdapterAlreadyExists)");
  adapter_policies resolved = policies;
  if (!resolved.servant_demux) resolved.servant_demux = servant_demux_;
  if (!resolved.operation_demux) resolved.operation_demux = operation_demux_;
  adapter_impl& child = registry_.add_adapter(this, name, resolved);
  children_.push_back(&child);
  if (policies.access) child.set_access(policies.access);
  else if (const access_policy* inherited = access()) child.set_access(*inherited);
  return child.handle();
}

void adapter_impl::set_access(std::optional<access_policy> policy) {
  std::unique_lock lock(mutex_);
  if (!policy) {
    access_.store(nullptr, std::memory_order_release);
    return;
  }
  access_kept_.push_back(std::make_unique<const access_policy>(std::move(*policy)));
  access_.store(access_kept_.back().get(), std::memory_order_release);
}

object_adapter* adapter_impl::find_child(std::string_view name) noexcept {
  std::shared_lock lock(mutex_);
  for (auto* child : children_)
    if (child->name_ == name) return &child->handle();
  return nullptr;
}

std::string adapter_impl::next_system_id() {
  // 8 octets, counting: unique for the adapter's lifetime, never reused.
  std::uint64_t n = next_system_id_++;
  std::string id(8, '\0');
  for (int i = 0; i < 8; ++i) id[i] = static_cast<char>((n >> (8 * i)) & 0xff);
  return id;
}

object_ref adapter_impl::activate(std::string_view object_id, std::shared_ptr<servant> target, bool system_id) {
  if (!target) bad_param("activate: null servant");
  const interface_info& interface = target->_interface();
  const operation_dispatch& operations = registry_.operation_tables().table_for(interface, operation_demux_);
  std::unique_lock lock(mutex_);
  std::string id = system_id ? next_system_id() : std::string(object_id);
  if (by_id_.contains(id)) bad_param("object id is active already (ObjectAlreadyActive) in adapter '" + name_ + "'");
  auto record = std::make_unique<activation>(activation{std::move(target), &operations, id, {}});
  auto key = servants_.insert(id, record.get());
  if (!key) bad_param("object id is active already (ObjectAlreadyActive) in adapter '" + name_ + "'");
  std::string servant_part(*key);
  if (uses_active_keys()) servant_part += id;  // the slot-and-generation hint, then the id
  record->object_key = make_object_key(index_, servant_part);
  activation& a = *record;
  by_id_.emplace(std::move(id), std::move(record));
  lock.unlock();
  return make_reference(a);
}

bool adapter_impl::deactivate(std::string_view object_id) {
  std::unique_lock lock(mutex_);
  auto it = by_id_.find(object_id);
  if (it == by_id_.end()) return false;
  // The map's key is the servant part of the object key (with active demultiplexing, its hint).
  std::string_view servant_part = parse_object_key(it->second->object_key)->servant_part;
  servants_.erase(uses_active_keys() ? servant_part.substr(0, active_key_size) : servant_part);
  // The servant itself may be in the middle of a request in another thread: that thread holds
  // its own shared_ptr, so the servant lives until the request ends.
  by_id_.erase(it);
  registry_.note_deactivation();
  return true;
}

bool adapter_impl::deactivate_key(std::string_view object_key) {
  std::string id;
  {
    std::shared_lock lock(mutex_);
    auto parsed = parse_object_key(object_key);
    if (!parsed || parsed->adapter_index != index_) return false;
    const activation* found = lookup(parsed->servant_part);
    if (found == nullptr) return false;
    id = found->object_id;
  }
  return deactivate(id);
}

void adapter_impl::deactivate_all() noexcept {
  // Moved out first: servants' destructors may call back into the adapter.
  boost::unordered_flat_map<std::string, std::unique_ptr<activation>, demux::key_hash, demux::key_equal> gone;
  {
    std::unique_lock lock(mutex_);
    servants_.clear();
    gone.swap(by_id_);
  }
  registry_.note_deactivation();
}

object_ref adapter_impl::reference_to(std::string_view object_id) const {
  std::shared_lock lock(mutex_);
  auto it = by_id_.find(object_id);
  if (it == by_id_.end()) return {};
  return make_reference(*it->second);
}

std::string adapter_impl::key_of(std::string_view object_id) const {
  std::shared_lock lock(mutex_);
  auto it = by_id_.find(object_id);
  return it == by_id_.end() ? std::string() : it->second->object_key;
}

std::shared_ptr<servant> adapter_impl::servant_of(std::string_view object_id) const {
  std::shared_lock lock(mutex_);
  auto it = by_id_.find(object_id);
  return it == by_id_.end() ? nullptr : it->second->target;
}

std::size_t adapter_impl::active_count() const noexcept {
  std::shared_lock lock(mutex_);
  return by_id_.size();
}

std::size_t adapter_impl::servant_map_bytes() const noexcept {
  std::shared_lock lock(mutex_);
  return servants_.memory_bytes();
}

bool adapter_impl::find(std::string_view servant_part, std::shared_ptr<servant>& target,
                        const operation_dispatch*& operations) const {
  std::shared_lock lock(mutex_);
  const activation* found = lookup(servant_part);
  if (found == nullptr) return false;
  target = found->target;
  operations = found->operations;
  return true;
}

void adapter_impl::use_object_ids(const object_id_table& table) {
  std::unique_lock lock(mutex_);
  if (!by_id_.empty()) bad_param("use_object_ids: adapter '" + name_ + "' has active objects; give the table first");
  servants_ = make_map(servant_demux_, &table);
  object_ids_ = &table;
}

const object_id_table* adapter_impl::object_ids() const noexcept {
  std::shared_lock lock(mutex_);
  return object_ids_;
}

object_ref adapter_impl::make_reference(const activation& a) const {
  return registry_.references().make_reference(a.target->_interface().repository_id, a.object_key);
}

}  // namespace switchyard::adapter
