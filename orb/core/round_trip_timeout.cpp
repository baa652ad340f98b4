// Round-trip timeouts: a reference's (switchyard/object.h), the thread's
// (switchyard/policies.h), and the deadline a call computes from them and -ORBCallTimeout.
#include "orb/core/round_trip_timeout.h"

#include <string>

#include "switchyard/exception.h"
#include "switchyard/policies.h"

namespace switchyard {

namespace core {

constinit thread_local std::int64_t thread_round_trip_timeout_ns = 0;

call_deadline timed_call_deadline(std::int64_t reference_timeout_ns, std::chrono::milliseconds orb_timeout) {
  // The Messaging spec's order: the reference's policy overrides the thread's, which overrides
  // the ORB's.
  std::chrono::nanoseconds timeout(reference_timeout_ns != 0 ? reference_timeout_ns : thread_round_trip_timeout_ns);
  if (timeout.count() == 0) timeout = orb_timeout;
  if (timeout.count() == 0) return std::nullopt;
  return std::chrono::steady_clock::now() + timeout;
}

}  // namespace core

namespace {

std::int64_t checked_timeout(std::chrono::nanoseconds timeout, const char* what) {
  if (timeout.count() <= 0 || timeout > max_round_trip_timeout)
    throw SystemException(
        SystemExceptionKind::BAD_PARAM, minor::omg_minor(0), CompletionStatus::no,
        std::string(what) + ": a round-trip timeout must be positive and at most " +
            std::to_string(std::chrono::duration_cast<std::chrono::hours>(max_round_trip_timeout).count()) +
            " hours, not " + std::to_string(timeout.count()) + " ns");
  return timeout.count();
}

}  // namespace

object_ref object_ref::with_round_trip_timeout(std::chrono::nanoseconds timeout) const {
  object_ref copy(*this);
  copy.round_trip_timeout_ =
      static_cast<std::uint64_t>(checked_timeout(timeout, "object_ref::with_round_trip_timeout"));
  return copy;
}

thread_round_trip_timeout::thread_round_trip_timeout(std::chrono::nanoseconds timeout)
    : previous_(core::thread_round_trip_timeout_ns) {
  core::thread_round_trip_timeout_ns = checked_timeout(timeout, "thread_round_trip_timeout");
}

thread_round_trip_timeout::~thread_round_trip_timeout() { core::thread_round_trip_timeout_ns = previous_; }

std::optional<std::chrono::nanoseconds> thread_round_trip_timeout::current() noexcept {
  if (core::thread_round_trip_timeout_ns == 0) return std::nullopt;
  return std::chrono::nanoseconds(core::thread_round_trip_timeout_ns);
}

}  // namespace switchyard
