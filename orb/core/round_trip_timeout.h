// A call's deadline from the round-trip timeouts that apply to it (docs/orb.md, "Timeouts"): the
// reference's policy, else the thread's, else -ORBCallTimeout. Internal to orb/core.
#pragma once

#include <chrono>
#include <cstdint>

#include "orb/core/client_connection.h"
#include "switchyard/object.h"

namespace switchyard::core {

// The thread's round-trip timeout in nanoseconds, 0 when none (switchyard/policies.h sets it).
// constinit: no guard on each read.
extern constinit thread_local std::int64_t thread_round_trip_timeout_ns;

// The deadline when some timeout applies: out of the call's way.
call_deadline timed_call_deadline(std::int64_t reference_timeout_ns, std::chrono::milliseconds orb_timeout);

// Whether any round-trip timeout applies to a call on `target`: three loads and one test when
// none does (the null call's path), which then leaves the call's deadline as it is (none).
inline bool round_trip_timeout_applies(const object_ref& target, std::chrono::milliseconds orb_timeout) noexcept {
  return (target.round_trip_timeout_ns() | thread_round_trip_timeout_ns | orb_timeout.count()) != 0;
}

// When a call on `target` that starts now must be done by; none when no timeout applies.
inline call_deadline call_deadline_for(const object_ref& target, std::chrono::milliseconds orb_timeout) {
  if (!round_trip_timeout_applies(target, orb_timeout)) [[likely]]
    return std::nullopt;
  return timed_call_deadline(target.round_trip_timeout_ns(), orb_timeout);
}

}  // namespace switchyard::core
