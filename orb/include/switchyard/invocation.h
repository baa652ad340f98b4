// Invocations: how a generated stub calls an operation on an object reference. The stub gives
// the arguments' marshaling as a function of the request stream, which the invocation may call
// more than once: after a LOCATION_FORWARD the request is written again for the new target, and
// after a failure that proves the server never had it, again for a new connection.
//
//   switchyard::invocation call(reference, "echo_long", 5);
//   auto& results = call.invoke([&](switchyard::cdr::output_stream& args) { args.write_long(v); });
//   return results.read_long();
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/object.h"
#include "switchyard/servant.h"

namespace switchyard {

class SystemException;
namespace core {
class reply_dispatcher;
struct async_call;
}  // namespace core

// The stub does not know the operation's index (no active demultiplexing for this call).
inline constexpr std::uint32_t no_operation_index = 0xffffffffu;

// Makes an invocation for a deferred synchronous call (the DII's send_deferred): its reply may be
// taken later, after other calls, or on another thread, so it does not make its target's ORB the
// thread's receiving ORB (switchyard/object_io.h) for its lifetime as a stub's invocation does;
// whoever reads object references from its reply opens a reference_binding_scope.
struct deferred_call_t {
  explicit deferred_call_t() = default;
};
inline constexpr deferred_call_t deferred_call{};

// Called with a USER_EXCEPTION reply: throws the generated exception that `repository_id` names,
// reading its members from `body`; returning means the id is not one the operation raises
// (the invocation then raises UNKNOWN).
using user_exception_raiser = void (*)(std::string_view repository_id, cdr::input_stream& body);

class invocation {
 public:
  invocation(const object_ref& target, std::string_view operation, std::uint32_t operation_index = no_operation_index);
  invocation(deferred_call_t, const object_ref& target, std::string_view operation,
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

  // A one-way call: returns once the request is sent, or, when the target's synchronization scope
  // is with_server or with_target (object_ref::with_sync_scope, -ORBSyncScope), once its reply
  // comes.
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

  // A deferred synchronous call: send_deferred sends a two-way request and returns; the reply is
  // taken later with receive_reply, which waits for it (and marshals the arguments again when the
  // request must go out again: a LOCATION_FORWARD, or a connection that provably never had it),
  // and reply_arrived says without waiting whether it has come (reading it if it has; true also
  // when the connection failed, which receive_reply then reports). The round-trip timeout
  // (docs/orb.md, "Timeouts") counts from the invocation's construction, which the DII makes at
  // the send.
  template <class MarshalArguments>
  void send_deferred(MarshalArguments&& marshal_arguments) {
    do marshal_arguments(begin(true));
    while (!send_twoway());
  }
  bool reply_arrived();
  template <class MarshalArguments>
  cdr::input_stream& receive_reply(MarshalArguments&& marshal_arguments, user_exception_raiser raise_user = nullptr) {
    while (!receive_twoway(raise_user)) {
      do marshal_arguments(begin(true));
      while (!send_twoway());
    }
    return reply_body_;
  }
  // A deferred call whose reply will not be taken: it is dropped when it comes.
  void forget_reply() noexcept;

 private:
  // The reply thread of asynchronous calls (switchyard/ami.h) waits on their state itself.
  friend class core::reply_dispatcher;
  friend struct core::async_call;
  // A deferred call whose reply has come (reply_arrived): the results, or an exception raised;
  // null when the request went out again (a forward) and its new reply is to be awaited.
  template <class MarshalArguments>
  cdr::input_stream* take_arrived_reply(MarshalArguments&& marshal_arguments, user_exception_raiser raise_user) {
    if (receive_twoway(raise_user)) return &reply_body_;
    do marshal_arguments(begin(true));
    while (!send_twoway());
    return nullptr;
  }
  cdr::output_stream& begin(bool response_expected);
  // False when the request must be written again: it went to a forwarded target, or it provably
  // never reached the server and goes out again on a new connection.
  bool complete_twoway(user_exception_raiser raise_user);
  bool complete_collocated_twoway(user_exception_raiser raise_user);
  bool complete_oneway();
  // complete_twoway in two steps, for deferred calls: false when the request must be written
  // again. receive_twoway waits unless reply_arrived has read the reply already.
  bool send_twoway();
  bool receive_twoway(user_exception_raiser raise_user);
  // The reply in the state, read: the results, or an exception raised, or false for a forward.
  bool take_reply(user_exception_raiser raise_user);
  // A call to an object of the target's own ORB, served in this thread (orb/core/collocation.h).
  void collocated_call(bool copy_reply);
  // After a failed send or wait: true when the request is to be sent again.
  bool send_again(const SystemException& failure);
  // With portable interceptors (switchyard/interceptors.h), out of line: the request id, the
  // interceptors' send_request, then begin's header with their contexts (never from the header
  // cache); nullptr when they added none, `send_code_sets` set, for begin's plain header. A failed
  // send or wait, a oneway sent and the reply, with their ending points.
  cdr::output_stream* begin_intercepted(cdr::output_stream& out, std::uint8_t response_flags, bool& send_code_sets);
  bool intercepted_failure(const SystemException& failure);
  void oneway_intercepted();
  void intercept_reply();

  object_ref target_;
  std::string_view operation_;
  std::uint32_t operation_index_;
  int forwards_ = 0;
  cdr::input_stream reply_body_;
  // The invocation's state (binding, request id, the reply it holds) without a heap allocation:
  // its type lives in orb/core/invocation_state.h, which checks that it fits here.
  alignas(8) std::byte state_[216];
};

namespace detail {

// -ORBCollocation direct: what a reference's state keeps so that a generated stub can call the
// servant's C++ method itself. It is the first part of the reference's state (orb/core's
// object_state derives from it, and checks that it sits at its start), so the stub reads it
// inline. Empty (`target` null) for every reference the ORB does not bind directly: the stub
// then pays one load and one branch. For generated code only.
struct direct_binding {
  // The servant, once a collocated call in direct mode has found it; its interface.
  std::atomic<servant*> target{nullptr};
  std::atomic<const interface_info*> interface { nullptr };
  // The ORB's deactivation count when the servant was found, and the ORB's count now: when they
  // differ, the stub has the servant looked up again before calling it.
  std::atomic<std::uint64_t> generation{0};
  const std::atomic<std::uint64_t>* deactivations = nullptr;
};

// The servant of a direct binding (`reference.state()` has one) when it is one of `interface`,
// else null. Looks it up again first when the ORB has deactivated an object since it was found:
// null when it is gone (the stub's invocation then raises OBJECT_NOT_EXIST as the server would).
// Out of line: stubs inline only the test for a direct binding.
servant* direct_target(const object_ref& reference, const interface_info& interface);

}  // namespace detail

// What a generated stub of the interface whose skeleton is `Skeleton` calls directly: the
// servant behind `reference` when the ORB bound it directly (-ORBCollocation direct) and it is a
// `Skeleton` of exactly that interface; otherwise null, and the stub makes an invocation.
template <class Skeleton>
inline Skeleton* direct_servant(const object_ref& reference) {
  core::object_state* state = reference.state();
  if (state == nullptr ||
      reinterpret_cast<detail::direct_binding*>(state)->target.load(std::memory_order_relaxed) == nullptr) [[likely]]
    return nullptr;
  return static_cast<Skeleton*>(detail::direct_target(reference, Skeleton::_info));
}

}  // namespace switchyard
