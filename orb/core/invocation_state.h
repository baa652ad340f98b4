// What an invocation keeps between marshaling its request and demarshaling its reply, placed in
// the storage switchyard::invocation reserves (no heap allocation per call). Internal to orb/core.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

#include "orb/core/client_connection.h"
#include "orb/core/object_state.h"
#include "orb/giop/protocol.h"

namespace switchyard::core {

class client_interception;

struct invocation_state {
  binding bound;
  client_connection::reply reply;
  const giop::protocol* protocol = nullptr;
  giop::message_mark mark{};
  std::uint32_t request_id = 0;
  // A request that provably never reached the server is sent again once, on a new connection.
  bool resent = false;
  bool reply_taken = false;  // reply_arrived() has put the reply in `reply`
  // What the request's header said: a one-way call waits for a reply unless it is `none`.
  std::uint8_t response_flags = 0;
  // When the whole call (connect, send, reply, any resend) must be done by: its round-trip
  // timeout (the reference's, the thread's or -ORBCallTimeout) from its start.
  call_deadline deadline;
  // The thread's receiving ORB before this invocation made its target's ORB current, so that
  // references in the reply bind to it (switchyard/object_io.h); restored when the call ends.
  orb_impl* previous_receiving_orb = nullptr;
  // Where the destructor puts it back: the thread's receiving-ORB slot, or, for a deferred call
  // (which made no ORB current), previous_receiving_orb itself. No branch either way.
  orb_impl** restore_receiving_orb_to = &previous_receiving_orb;
  // The call's portable interceptors' state: null unless the ORB has client interceptors.
  client_interception* interception = nullptr;
};

// The state in an invocation's storage (switchyard::invocation::state_).
inline invocation_state& state_of(std::byte* storage) noexcept {
  return *std::launder(reinterpret_cast<invocation_state*>(storage));
}

// The thread's receiving-ORB slot (switchyard/object_io.h), for invocations: they save and
// restore it without a call each way.
orb_impl** receiving_orb_slot() noexcept;

}  // namespace switchyard::core
