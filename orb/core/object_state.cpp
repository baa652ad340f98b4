#include "orb/core/object_state.h"

#include <algorithm>
#include <atomic>

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
      targets_(iop::targets_of(ior_)),
      peer_is_switchyard_(made_by_switchyard(ior_)) {}

binding object_state::bind(call_deadline deadline) {
  std::lock_guard lock(mutex_);
  // The remote path tests what it tested before; a collocated binding is looked at only when
  // there is no connection.
  if (current_.connection) {
    if (current_.connection->is_open()) return current_;
  } else if (current_.collocated) {
    return current_;
  }
  return bind_locked(forward_targets_.empty() ? targets_ : forward_targets_, deadline);
}

binding object_state::bind_locked(const std::vector<iop::invocation_target>& targets, call_deadline deadline) {
  if (targets.empty())
    throw SystemException(SystemExceptionKind::INV_OBJREF, minor::omg_minor(1), CompletionStatus::no,
                          ior_.is_nil() ? "nil object reference" : "no usable profile in the IOR of " + ior_.type_id);
  // A target in this ORB itself is served without a socket: looked for once per binding.
  if (orb_->options().collocation != collocation_mode::none) {
    for (const auto& target : targets) {
      if (!names_this_orb(*orb_, target)) continue;
      current_.connection.reset();
      current_.object_key = std::make_shared<const std::vector<std::byte>>(target.object_key);
      current_.giop_minor = std::min(target.version.minor, orb_->options().giop_minor);
      current_.peer_is_switchyard = true;  // our own adapters: the operation index is good
      current_.id = next_binding_id();
      current_.collocated = true;
      return current_;
    }
  }
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
      if (i + 1 == targets.size() || e.kind() == SystemExceptionKind::TIMEOUT) throw;
    }
  }
  throw SystemException(SystemExceptionKind::TRANSIENT, minor::connect_failed, CompletionStatus::no,
                        "no target reachable");
}

void object_state::forward_to(const iop::ior& forward) {
  auto targets = iop::targets_of(forward);
  std::lock_guard lock(mutex_);
  forward_targets_ = std::move(targets);
  current_ = {};
}

void object_state::reset_binding() noexcept {
  std::lock_guard lock(mutex_);
  forward_targets_.clear();
  current_ = {};
}

}  // namespace switchyard::core
