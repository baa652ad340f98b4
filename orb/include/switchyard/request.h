// The Dynamic Invocation Interface (CORBA 3.0, chapter 7; the C++ mapping's CORBA::Request): a
// call built at run time from a reference, an operation name, arguments held in Anys, a result
// type and the user exceptions the operation may raise, for a client that has no stub.
//
//   switchyard::request call(echo, "echo_long");
//   call.add_in_arg("v") <<= std::int32_t{5};
//   call.set_return_type(switchyard::type_code::basic(switchyard::tc_kind::tk_long));
//   call.invoke();
//   std::int32_t got = 0;
//   call.return_value() >>= got;
//
// A request goes out as the same GIOP Request a stub sends (arguments as their values, not as
// Anys), and its reply is read back through the TypeCodes: the result, then every out and inout
// argument in order. System exceptions are raised as a stub raises them; a user exception that
// the exception list names is raised as unknown_user_exception holding it in an Any (extract it
// with the generated `>>=`), one it does not name as UNKNOWN.
//
// A request is built once and invoked again with new argument values (`argument(0).value <<= v`,
// or `arguments()[0]`): nothing is rebuilt, which is what lets a DII call cost about what a stub
// call costs (the latency paper's VisiBroker); building one per call is the paper's Orbix.
//
// Deferred synchronous calls: send_deferred() sends and returns; poll_response() says whether the
// reply has come (reading it if it has), get_response() waits for it. Any number of requests may
// be outstanding on one connection, collected in any order. A request is used by one thread at a
// time; different requests may be used by different threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "switchyard/any.h"
#include "switchyard/context.h"
#include "switchyard/exception.h"
#include "switchyard/object.h"
#include "switchyard/type_code.h"

namespace switchyard {

// CORBA's ARG_IN, ARG_OUT, ARG_INOUT.
enum class arg_mode : std::uint8_t { in, out, inout };

// One argument (CORBA::NamedValue): its name (for people; the wire carries none), mode and value.
// An out argument's Any has its TypeCode and no value until the reply gives it one.
struct named_value {
  std::string name;
  any value;
  arg_mode mode = arg_mode::in;
};

// A user exception the DII or DSI knows only by its TypeCode (CORBA::UnknownUserException): the
// exception, as an Any of its tk_except TypeCode (repository id, then members).
class unknown_user_exception : public UserException {
 public:
  explicit unknown_user_exception(any exception) : exception_(std::move(exception)) {}
  const any& exception() const noexcept { return exception_; }
  std::string_view repository_id() const noexcept override;
  const char* what() const noexcept override { return "CORBA::UnknownUserException"; }

 private:
  any exception_;
};

class request {
 public:
  // A request for `operation` on `target`. INV_OBJREF for a nil target (at invocation).
  request(object_ref target, std::string operation);
  ~request();
  request(const request&) = delete;
  request& operator=(const request&) = delete;
  request(request&&) noexcept;
  request& operator=(request&&) noexcept;

  const object_ref& target() const noexcept { return target_; }
  const std::string& operation() const noexcept { return operation_; }

  // --- arguments, in the order the operation declares them
  // The Any to insert the value into (`call.add_in_arg("v") <<= 5`).
  any& add_in_arg(std::string_view name = {});
  any& add_inout_arg(std::string_view name = {});
  // An out argument of type `type`; its value is set by the reply.
  any& add_out_arg(type_code type, std::string_view name = {});
  std::vector<named_value>& arguments() noexcept { return arguments_; }
  const std::vector<named_value>& arguments() const noexcept { return arguments_; }
  named_value& argument(std::size_t index) { return arguments_.at(index); }

  // --- the IDL context (switchyard/context.h), for an operation with a context clause: the
  // properties of ctx() that the patterns of contexts() match are sent after the arguments
  // (CORBA::Request::ctx and contexts). Nothing is sent while contexts() is empty.
  context& ctx() noexcept { return context_; }
  std::vector<std::string>& contexts() noexcept { return context_patterns_; }

  // --- result and exceptions
  // tk_void (the default) for an operation that returns nothing.
  void set_return_type(type_code type);
  // The result once the reply has come (its TypeCode before).
  const any& return_value() const noexcept { return result_; }
  // The user exceptions the operation raises (CORBA::ExceptionList), as tk_except TypeCodes.
  void add_exception(type_code exception_type);
  std::vector<type_code>& exceptions() noexcept { return exceptions_; }

  // The operation's index for a Switchyard server's active demultiplexing (the position in its
  // interface, as a stub sends it); none by default.
  void set_operation_index(std::uint32_t index) noexcept { operation_index_ = index; }

  // --- calls
  // A two-way call: returns when the reply has come, its result and out arguments set.
  void invoke();
  // A one-way call: returns once the request is sent.
  void send_oneway();
  // Deferred synchronous: sends a two-way request and returns. BAD_INV_ORDER if this request is
  // already outstanding.
  void send_deferred();
  // Whether the reply to send_deferred has come, without waiting; when it has, it is read (the
  // results are set, or the exception is kept for get_response). BAD_INV_ORDER if nothing is
  // outstanding.
  bool poll_response();
  // Waits for the reply to send_deferred and sets the results, or raises what it carried.
  void get_response();
  // Whether a deferred request is outstanding (sent, its response not yet taken).
  bool outstanding() const noexcept { return state_ != call_state::idle; }

 private:
  struct deferred;
  enum class call_state : std::uint8_t { idle, sent, answered };

  void marshal_arguments(cdr::output_stream& out) const;
  void demarshal_results(cdr::input_stream& in);
  // Reads the deferred call's reply (waiting for it) into the results, or keeps what it raised.
  void take_response();
  [[noreturn]] void raise_user_exception(std::string_view id, cdr::input_stream& body) const;

  object_ref target_;
  std::string operation_;
  std::uint32_t operation_index_;
  std::vector<named_value> arguments_;
  context context_;
  std::vector<std::string> context_patterns_;
  any result_;
  std::vector<type_code> exceptions_;
  call_state state_ = call_state::idle;
  std::unique_ptr<deferred> deferred_;  // while outstanding
  std::exception_ptr failure_;          // what an answered deferred request raises
};

}  // namespace switchyard
