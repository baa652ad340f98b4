#include "orb/core/object_state.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <type_traits>

#include "orb/adapter/adapter_registry.h"
#include "orb/core/collocation.h"
#include "orb/core/orb_impl.h"
#include "orb/ior/iiop_profile.h"
#include "orb/ior/tags.h"
#include "switchyard/exception.h"

namespace switchyard::core {

namespace {

std::uint64_t next_binding_id() noexcept {
  static std::atomic<std::uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

bool made_by_switchyard(const iop::ior& reference) {
  for (const auto& profile : reference.profiles) {
    if (profile.tag != iop::tag_internet_iop) continue;
    try {
      if (iop::decode_iiop_profile(profile.data).orb_type() == iop::orb_type_switchyard) return true;
    } catch (const SystemException&) {
      // A malformed profile is reported when it is used, not here.
    }
  }
  return false;
}

}  // namespace

object_state::object_state(std::shared_ptr<orb_impl> orb, iop::ior reference)
    : orb_(std::move(orb)),
      ior_(std::move(reference)),
      targets_(usable_targets(iop::targets_of(ior_))),
      peer_is_switchyard_(made_by_switchyard(ior_)) {
  deactivations = &orb_->adapters().deactivations();
  // Generated stubs find the direct binding at the start of the state (switchyard/invocation.h).
  static_assert(std::is_standard_layout_v<detail::direct_binding>);
  if (static_cast<void*>(static_cast<detail::direct_binding*>(this)) != static_cast<void*>(this)) std::abort();
}

std::vector<iop::invocation_target> object_state::usable_targets(std::vector<iop::invocation_target> targets) const {
  // Configured for TLS, this ORB calls an IOR that offers TLS only over TLS: its plain addresses
  // are never a fallback. Not configured, it uses the plain addresses where there are any.
  const bool tls = orb_->options().tls_given;
  bool any_plain = false;
  for (const auto& t : targets) any_plain |= t.where.kind != iop::transport_kind::ssliop;
  std::erase_if(targets, [&](const iop::invocation_target& t) {
    if (tls) return t.tls_offered;
    return t.where.kind == iop::transport_kind::ssliop && any_plain;
  });
  return targets;
}

binding object_state::bind(call_deadline deadline) {
  std::lock_guard lock(mutex_);
  if (current_.connection && current_.connection->is_open()) return current_;
  return bind_locked(forward_targets_.empty() ? targets_ : forward_targets_, deadline);
}

binding object_state::bind_locked(const std::vector<iop::invocation_target>& targets, call_deadline deadline) {
  if (targets.empty())
    throw SystemException(SystemExceptionKind::INV_OBJREF, minor::omg_minor(1), CompletionStatus::no,
                          ior_.is_nil() ? "nil object reference" : "no usable profile in the IOR of " + ior_.type_id);
  // A collocated binding has no connection: it comes here, and stays (the remote path above
  // tests nothing more for it).
  if (current_.collocated) return current_;
  // A target in this ORB itself is served without a socket: looked for once per binding.
  if (orb_->options().collocation != collocation_mode::none && bind_collocated_locked(targets)) return current_;
  // Each target in turn: the first that connects wins. TRANSIENT from the last if none does.
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const auto& target = targets[i];
    try {
      auto connection = orb_->connections().get(target.where, deadline);
      current_.connection = std::move(connection);
      current_.object_key = std::make_shared<const std::vector<std::byte>>(target.object_key);
      current_.giop_minor = std::min(target.version.minor, orb_->options().giop_minor);
      current_.peer_is_switchyard = peer_is_switchyard_ && forward_targets_.empty();
      current_.id = next_binding_id();
      current_.collocated = false;
      return current_;
    } catch (const SystemException& e) {
      // A server whose certificate does not verify is not one to try another address of.
      if (i + 1 == targets.size() || e.kind() == SystemExceptionKind::TIMEOUT ||
          e.kind() == SystemExceptionKind::NO_PERMISSION)
        throw;
    }
  }
  throw SystemException(SystemExceptionKind::TRANSIENT, minor::connect_failed, CompletionStatus::no,
                        "no target reachable");
}

servant* object_state::refresh_direct() {
  // Read before the lookup: a deactivation after it is seen by the next call.
  const std::uint64_t seen = deactivations->load(std::memory_order_acquire);
  servant* known = target.load(std::memory_order_acquire);
  if (known != nullptr && generation.load(std::memory_order_relaxed) == seen) return known;
  std::lock_guard lock(mutex_);
  if (!current_.collocated || current_.connection || !current_.object_key) {
    target.store(nullptr, std::memory_order_release);
    return nullptr;
  }
  const std::string_view key(reinterpret_cast<const char*>(current_.object_key->data()), current_.object_key->size());
  adapter::dispatch_target found;
  const adapter::operation_dispatch* operations = nullptr;
  if (orb_->adapters().find_servant(key, {}, found, operations) != adapter::lookup_status::found ||
      found.target == nullptr) {
    target.store(nullptr, std::memory_order_release);
    return nullptr;
  }
  if (found.target != direct_servant_) {
    previous_direct_servant_ = std::move(direct_servant_);
    direct_servant_ = std::move(found.target);
  }
  interface.store(&direct_servant_->_interface(), std::memory_order_relaxed);
  generation.store(seen, std::memory_order_relaxed);
  target.store(direct_servant_.get(), std::memory_order_release);
  return direct_servant_.get();
}

// Out of line: what it calls stays out of the remote path's bind (inlined into the invocation).
[[gnu::noinline]] bool object_state::bind_collocated_locked(const std::vector<iop::invocation_target>& targets) {
  for (const auto& target : targets) {
    if (!names_this_orb(*orb_, target)) continue;
    current_.connection.reset();
    current_.object_key = std::make_shared<const std::vector<std::byte>>(target.object_key);
    current_.giop_minor = std::min(target.version.minor, orb_->options().giop_minor);
    current_.peer_is_switchyard = true;  // our own adapters: the operation index is good
    current_.id = next_binding_id();
    current_.collocated = true;
    return true;
  }
  return false;
}

void object_state::forward_to(const iop::ior& forward) {
  auto targets = usable_targets(iop::targets_of(forward));
  std::lock_guard lock(mutex_);
  forward_targets_ = std::move(targets);
  current_ = {};
  target.store(nullptr, std::memory_order_release);
}

void object_state::reset_binding() noexcept {
  std::lock_guard lock(mutex_);
  forward_targets_.clear();
  current_ = {};
  target.store(nullptr, std::memory_order_release);
}

}  // namespace switchyard::core

namespace switchyard::detail {

servant* direct_target(const object_ref& reference, const interface_info& expected) {
  core::object_state& state = *reference.state();
  servant* found = state.target.load(std::memory_order_acquire);
  if (found == nullptr) return nullptr;
  if (state.generation.load(std::memory_order_relaxed) != state.deactivations->load(std::memory_order_acquire))
      [[unlikely]] {
    found = state.refresh_direct();
    if (found == nullptr) return nullptr;
  }
  return state.interface.load(std::memory_order_relaxed) == &expected ? found : nullptr;
}

}  // namespace switchyard::detail

namespace switchyard::core {}  // namespace switchyard::core
