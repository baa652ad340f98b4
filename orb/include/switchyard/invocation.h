// Invocations: how a generated stub calls an operation on an object reference. The stub gives
// the arguments' marshaling as a function of the request stream, which the invocation may call
// more than once: after a LOCATION_FORWARD the request is written again for the new target, and
// after a failure that proves the server never had it, again for a new connection.
//
//   switchyard::invocation call(reference, "echo_long", 5);
//   auto& results = call.invoke([&](switchyard::cdr::output_stream& args) { args.write_long(v); });
//   return results.read_long();
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/object.h"

namespace switchyard {

class SystemException;

// The stub does not know the operation's index (no active demultiplexing for this call).
inline constexpr std::uint32_t no_operation_index = 0xffffffffu;

// Called with a USER_EXCEPTION reply: throws the generated exception that `repository_id` names,
// reading its members from `body`; returning means the id is not one the operation raises
// (the invocation then raises UNKNOWN).
using user_exception_raiser = void (*)(std::string_view repository_id, cdr::input_stream& body);

class invocation {
 public:
  invocation(const object_ref& target, std::string_view operation,
             std::uint32_t operation_index = no_operation_index);
  ~invocation();
  invocation(const invocation&) = delete;
  invocation& operator=(const invocation&) = delete;

  // A two-way call: returns the reply body, positioned at the results. It reads from the
  // connection's buffer and stays valid while this invocation lives.
  template <class MarshalArguments>
  cdr::input_stream& invoke(MarshalArguments&& marshal_arguments, user_exception_raiser raise_user = nullptr) {
    for (;;) {
      marshal_arguments(begin(true));
      if (complete_twoway(raise_user)) return reply_body_;
    }
  }
  cdr::input_stream& invoke(user_exception_raiser raise_user = nullptr) {
    return invoke([](cdr::output_stream&) {}, raise_user);
  }

  // A one-way call: returns once the request is sent.
  template <class MarshalArguments>
  void invoke_oneway(MarshalArguments&& marshal_arguments) {
    for (;;) {
      marshal_arguments(begin(false));
      if (complete_oneway()) return;
    }
  }
  void invoke_oneway() {
    invoke_oneway([](cdr::output_stream&) {});
  }

 private:
  cdr::output_stream& begin(bool response_expected);
  // False when the request must be written again: it went to a forwarded target, or it provably
  // never reached the server and goes out again on a new connection.
  bool complete_twoway(user_exception_raiser raise_user);
  bool complete_oneway();
  // After a failed send or wait: true when the request is to be sent again.
  bool send_again(const SystemException& failure);

  object_ref target_;
  std::string_view operation_;
  std::uint32_t operation_index_;
  int forwards_ = 0;
  cdr::input_stream reply_body_;
  // The invocation's state (binding, request id, the reply it holds) without a heap allocation:
  // its type lives in orb/core/invocation_state.h, which checks that it fits here.
  alignas(8) std::byte state_[184];
};

}  // namespace switchyard
