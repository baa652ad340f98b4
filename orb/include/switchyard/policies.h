// Client-side policies set on the current thread, after the CORBA Messaging spec's
// PolicyCurrent: so far the round-trip timeout (docs/orb.md, "Timeouts"). A reference's own
// policies are set on a copy of it (object_ref::with_round_trip_timeout, switchyard/object.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "switchyard/object.h"

namespace switchyard {

// The Messaging spec's RelativeRoundtripTimeoutPolicy for the calls this thread makes while the
// guard lives: each must be done within `timeout` of its start or raise TIMEOUT. It overrides
// -ORBCallTimeout; a reference's own policy overrides it. The destructor restores the thread's
// previous timeout (guards nest; destroy them in reverse order, on the thread that made them).
// BAD_PARAM unless 0 < timeout <= max_round_trip_timeout.
//
//   switchyard::thread_round_trip_timeout guard(std::chrono::milliseconds(50));
class thread_round_trip_timeout {
 public:
  explicit thread_round_trip_timeout(std::chrono::nanoseconds timeout);
  ~thread_round_trip_timeout();
  thread_round_trip_timeout(const thread_round_trip_timeout&) = delete;
  thread_round_trip_timeout& operator=(const thread_round_trip_timeout&) = delete;

  // The timeout set on the calling thread now; none outside every guard.
  static std::optional<std::chrono::nanoseconds> current() noexcept;

 private:
  std::int64_t previous_;  // nanoseconds; 0: none
};

}  // namespace switchyard
