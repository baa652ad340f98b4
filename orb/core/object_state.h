// What an object reference knows: its IOR, the targets in it, and its binding, the target it
// talks to now (after any LOCATION_FORWARD) with the shared connection to it. Internal to
// orb/core.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "orb/core/client_connection.h"
#include "orb/ior/object_reference.h"
#include "switchyard/invocation.h"

namespace switchyard::core {

class orb_impl;

// Everything an invocation needs to send a request, copied out under the lock.
struct binding {
  std::shared_ptr<client_connection> connection;
  std::shared_ptr<const std::vector<std::byte>> object_key;
  std::uint8_t giop_minor = 2;
  bool peer_is_switchyard = false;  // sends the operation index for active demultiplexing
  // The target is an object of this same ORB (-ORBCollocation thru-adapter or direct): no
  // connection; the invocation serves the request in its own thread (orb/core/collocation.h).
  bool collocated = false;
  // Unique to this binding in the process (never 0): what the request header cache keys on.
  std::uint64_t id = 0;
};

// Its first base, detail::direct_binding, is what generated stubs read inline (direct mode).
class object_state : public detail::direct_binding {
 public:
  object_state(std::shared_ptr<orb_impl> orb, iop::ior reference);

  const iop::ior& ior() const noexcept { return ior_; }
  orb_impl& orb() const noexcept { return *orb_; }

  // The current binding, connecting if need be (its connection is rebound once it is no longer
  // open): TRANSIENT when no target can be reached, TIMEOUT when `deadline` passes first. A
  // target that names this ORB itself binds without a connection (collocated) unless
  // -ORBCollocation none.
  binding bind(call_deadline deadline = std::nullopt);
  // LOCATION_FORWARD: later requests go to `forward` (until it fails).
  void forward_to(const iop::ior& forward);
  // The current target failed: drop any forward and the connection, so the next request
  // rebinds (and reconnects).
  void reset_binding() noexcept;

  // -ORBCollocation direct, after a collocated call: finds the servant for the direct binding if
  // it has none or a stale one. The servant, or null when the object is not active (or the
  // binding is not collocated).
  servant* refresh_direct();

 private:
  // The targets this ORB may call: TLS ones only, when it is configured for TLS and they are offered.
  std::vector<iop::invocation_target> usable_targets(std::vector<iop::invocation_target> targets) const;
  binding bind_locked(const std::vector<iop::invocation_target>& targets, call_deadline deadline);
  // Binds to the first of `targets` in this ORB itself, if any (collocated): true then.
  bool bind_collocated_locked(const std::vector<iop::invocation_target>& targets);

  std::shared_ptr<orb_impl> orb_;
  iop::ior ior_;
  std::vector<iop::invocation_target> targets_;
  bool peer_is_switchyard_;

  std::mutex mutex_;  // guards what follows
  std::vector<iop::invocation_target> forward_targets_;
  binding current_;
  // The servant the direct binding points to, kept alive while it does (and the one before it,
  // which a call in another thread may still be running).
  std::shared_ptr<servant> direct_servant_;
  std::shared_ptr<servant> previous_direct_servant_;
};

}  // namespace switchyard::core
