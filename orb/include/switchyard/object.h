// Object references: what a client holds to call an object, reference-counted, copied freely.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace switchyard {

namespace core {
class object_state;
}

// A reference to a CORBA object, local or remote; nil when default-constructed. Generated stubs
// wrap one. Copies share one state: its chosen profile, its forwarding target, and its
// connection (one per endpoint, shared by every reference to that endpoint). What a copy keeps
// for itself are its client-side policies: the round-trip timeout (docs/orb.md, "Timeouts") and
// the one-way calls' synchronization scope ("One-way calls"), which are not part of the IOR and
// are not sent with the reference.

// The Messaging spec's SyncScopePolicy: when a one-way call returns to its caller.
enum class sync_scope : std::uint8_t {
  none,            // at once; here as with_transport: the ORB has no queue of its own for requests
  with_transport,  // once the request is in the transport (the kernel has it): the default
  with_server,     // once the server's ORB has found the target, before the upcall (a reply says so)
  with_target,     // once the upcall is done (the reply of a two-way call with no results)
};

class object_ref {
 public:
  object_ref() noexcept = default;
  explicit object_ref(std::shared_ptr<core::object_state> state) noexcept : state_(std::move(state)) {}

  bool is_nil() const noexcept { return state_ == nullptr; }
  explicit operator bool() const noexcept { return state_ != nullptr; }

  // The repository id the reference carries ("IDL:ttcp_sequence:1.0"; may be empty).
  std::string_view repository_id() const noexcept;
  // Asks the object whether it implements `repository_id` (the standard _is_a operation).
  bool is_a(std::string_view repository_id) const;
  // Asks whether the object is gone (_non_existent); a dead server raises TRANSIENT instead.
  bool non_existent() const;
  // Sends a LocateRequest: true when the object is here (after following any forward).
  bool locate() const;
  // The same IOR (profiles and keys compare equal).
  bool is_equivalent(const object_ref& other) const noexcept;

  // The Messaging spec's RelativeRoundtripTimeoutPolicy set on a reference (its
  // _set_policy_overrides): a copy of this reference, sharing its state (binding, connection),
  // whose calls (stubs made from it, DII requests, is_a, non_existent, locate) must be done
  // within `timeout` of their start or raise TIMEOUT. It overrides the thread's timeout
  // (switchyard/policies.h) and -ORBCallTimeout. This reference is left as it was. BAD_PARAM
  // unless 0 < timeout <= max_round_trip_timeout.
  object_ref with_round_trip_timeout(std::chrono::nanoseconds timeout) const;
  // A copy without the policy (the thread's timeout, or -ORBCallTimeout, applies to it).
  object_ref without_round_trip_timeout() const noexcept {
    object_ref copy(*this);
    copy.round_trip_timeout_ = 0;
    return copy;
  }
  // The policy this copy carries; none when it was not set on it.
  std::optional<std::chrono::nanoseconds> round_trip_timeout() const noexcept {
    if (round_trip_timeout_ == 0) return std::nullopt;
    return std::chrono::nanoseconds(round_trip_timeout_);
  }

  // The SyncScopePolicy set on a reference: a copy of this one, sharing its state, whose one-way
  // calls (stubs made from it, DII send_oneway) return when `scope` says. It overrides
  // -ORBSyncScope. With with_server and with_target a one-way call waits for a reply, so it
  // raises what a two-way call would (OBJECT_NOT_EXIST, TRANSIENT, TIMEOUT, and with_target what
  // the servant raised); GIOP 1.0 and 1.1 have no with_server, which they send as with_target.
  object_ref with_sync_scope(sync_scope scope) const noexcept {
    object_ref copy(*this);
    copy.sync_scope_ = static_cast<std::uint64_t>(scope) + 1;
    return copy;
  }
  // The scope this copy carries; none when it was not set on it (-ORBSyncScope applies).
  std::optional<switchyard::sync_scope> own_sync_scope() const noexcept {
    if (sync_scope_ == 0) return std::nullopt;
    return static_cast<switchyard::sync_scope>(sync_scope_ - 1);
  }

  core::object_state* state() const noexcept { return state_.get(); }
  const std::shared_ptr<core::object_state>& shared_state() const noexcept { return state_; }
  // The policy in nanoseconds, 0 when none: what an invocation reads (orb/core).
  std::int64_t round_trip_timeout_ns() const noexcept { return static_cast<std::int64_t>(round_trip_timeout_); }

 private:
  std::shared_ptr<core::object_state> state_;
  // The policies share one word, so that a reference stays three words; the timeout in the high
  // bits, which a call reads with one shift.
  std::uint64_t sync_scope_ : 3 = 0;           // sync_scope + 1; 0: no policy on this copy
  std::uint64_t round_trip_timeout_ : 61 = 0;  // nanoseconds; 0: no policy on this copy
};

static_assert(sizeof(object_ref) == 3 * sizeof(void*), "a reference is its state and one word of policies");

// The longest round-trip timeout a reference or a thread takes (fifty years: it fits the policy's
// 61 bits, and a deadline a call computes from it cannot overflow the steady clock).
inline constexpr std::chrono::nanoseconds max_round_trip_timeout = std::chrono::hours(24 * 365 * 50);

}  // namespace switchyard
