// Asynchronous method invocation (CORBA Messaging's AMI): a two-way call that returns once its
// request is sent, its reply delivered later to a callback (the callback model, sendc_) or kept
// for a poller (the polling model, sendp_). What syidl's AMI stubs call, and what a hand-written
// typed mapping calls:
//
//   switchyard::ami::send_callback(reference, "echo_long",
//       [v](switchyard::cdr::output_stream& args) { args.write_long(v); },
//       [](switchyard::cdr::input_stream* results, const switchyard::exception_holder* raised) {
//         if (raised != nullptr) report(*raised); else use(results->read_long());
//       });
//
// Replies are delivered on the ORB's reply thread (one per ORB, started by the first
// asynchronous call), in the order they come; any number of calls may be outstanding, on one
// connection or many. A callback may itself call, synchronously or not, on any reference. A
// call past its round-trip timeout (the reference's, the thread's or -ORBCallTimeout, counted
// from the send) completes with TIMEOUT; at ORB shutdown the calls still outstanding complete
// with BAD_INV_ORDER. See docs/orb.md, "Asynchronous calls".
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string_view>
#include <utility>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/invocation.h"
#include "switchyard/object.h"

namespace switchyard {

namespace core {
struct async_call;
struct poller_state;
}  // namespace core

// What an asynchronous call raised (the Messaging specification's ExceptionHolder): a system
// exception, or a user exception the operation declares (thrown by the stub's raiser).
class exception_holder {
 public:
  explicit exception_holder(std::exception_ptr raised) noexcept : raised_(std::move(raised)) {}
  // Throws what the call raised.
  [[noreturn]] void raise_exception() const { std::rethrow_exception(raised_); }
  const std::exception_ptr& exception() const noexcept { return raised_; }

 private:
  std::exception_ptr raised_;
};

namespace ami {

// Writes the request's in and inout arguments; called again if the request must go out again (a
// LOCATION_FORWARD, or a connection that provably never had it), so it captures them by value.
// Empty for an operation without any.
using argument_writer = std::function<void(cdr::output_stream&)>;

// Called once per call on the ORB's reply thread: with the reply body positioned at the results
// (the return value, then inout and out arguments) and `raised` null, or with `results` null and
// what the call raised. The results are valid until it returns.
using reply_callback = std::function<void(cdr::input_stream* results, const exception_holder* raised)>;

// The callback model: sends the request and returns. Failures before the request is sent (no
// connection, a nil reference) are raised here, as for a synchronous call; everything after
// reaches `on_reply`.
void send_callback(const object_ref& target, std::string_view operation, argument_writer arguments,
                   reply_callback on_reply, user_exception_raiser raise_user = nullptr,
                   std::uint32_t operation_index = no_operation_index);

// The polling model's handle on one outstanding call (a type-specific poller's insides).
class poller {
 public:
  // CORBA's "wait as long as it takes" (a timeout of 2^32 - 1 milliseconds).
  static constexpr std::chrono::milliseconds forever{0xffffffffu};

  poller() = default;
  poller(poller&&) noexcept;
  poller& operator=(poller&&) noexcept;
  ~poller();

  // Whether the reply has come, waiting for it up to `timeout` (zero: look only).
  bool is_ready(std::chrono::milliseconds timeout) const;
  // The reply's results once it has come, waiting up to `timeout`; raises TIMEOUT (completed
  // NO) if it has not come by then, and what the call raised if it failed. The results are
  // given once: afterwards OBJECT_NOT_EXIST, as the specification says of a poller whose reply
  // was returned. The stream stays valid while this poller lives.
  cdr::input_stream& results(std::chrono::milliseconds timeout);
  // A poller not from send_poller: none of the above may be asked.
  bool is_nil() const noexcept { return state_ == nullptr; }

 private:
  friend poller send_poller(const object_ref&, std::string_view, argument_writer, user_exception_raiser, std::uint32_t);
  explicit poller(std::shared_ptr<core::poller_state> state) noexcept;
  std::shared_ptr<core::poller_state> state_;
};

// The polling model: sends the request and returns the poller its reply will be kept for.
poller send_poller(const object_ref& target, std::string_view operation, argument_writer arguments,
                   user_exception_raiser raise_user = nullptr, std::uint32_t operation_index = no_operation_index);

}  // namespace ami
}  // namespace switchyard
