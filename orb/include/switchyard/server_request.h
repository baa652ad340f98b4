// The request a skeleton serves: the arguments to read and the reply to write. For generated code.
#pragma once

#include <cstdint>
#include <string_view>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/instrument.h"
#include "switchyard/security.h"

namespace switchyard {

namespace core {
class reply_sink;
}

// The replies a request can have (GIOP's ReplyStatusType values).
enum class reply_status : std::uint32_t {
  no_exception = 0,
  user_exception = 1,
  system_exception = 2,
  location_forward = 3,
};

class server_request {
 public:
  // `timer`: the request's phase timer (the core's; it times only when -ORBInstrument is on).
  server_request(cdr::input_stream arguments, std::string_view operation, std::uint32_t request_id,
                 bool response_expected, core::reply_sink& sink, instrument::phase_timer& timer) noexcept
      : arguments_(arguments),
        operation_(operation),
        request_id_(request_id),
        response_expected_(response_expected),
        sink_(&sink),
        timer_(&timer) {}
  server_request(const server_request&) = delete;
  server_request& operator=(const server_request&) = delete;

  // The request body, positioned at the first argument; reads views into the receive buffer.
  cdr::input_stream& arguments() noexcept { return arguments_; }

  // The reply body, after a NO_EXCEPTION reply header written on first use. Only when a response
  // is expected.
  cdr::output_stream& reply() {
    if (reply_ == nullptr) reply_ = &begin_reply(reply_status::no_exception);
    return *reply_;
  }
  // Replaces any reply so far with a USER_EXCEPTION reply; the skeleton writes the exception's
  // repository id and members after it.
  cdr::output_stream& user_exception_reply() {
    reply_ = &begin_reply(reply_status::user_exception);
    return *reply_;
  }
  bool has_reply() const noexcept { return reply_ != nullptr; }
  reply_status status() const noexcept { return status_; }

  // Generated skeletons mark the end of their phases (layer::demarshal after reading the
  // arguments, layer::upcall after the servant returns) for the request-path profile; the core
  // marks the rest. Nothing happens unless -ORBInstrument switched the probes on: a mark is then
  // two loads and one well-predicted branch, and no code at all when instrumentation is compiled
  // out (phase_timer::mark is empty).
  void mark(instrument::layer phase) noexcept { timer_->mark(phase); }

  std::string_view operation() const noexcept { return operation_; }
  std::uint32_t request_id() const noexcept { return request_id_; }
  bool response_expected() const noexcept { return response_expected_; }
  // Who called: the verified certificate of a TLS caller; nullptr for a plain or anonymous one
  // and for a collocated call (switchyard/security.h).
  const peer_identity* caller() const noexcept { return current_caller(); }

 private:
  cdr::output_stream& begin_reply(reply_status status);

  cdr::input_stream arguments_;
  std::string_view operation_;
  std::uint32_t request_id_;
  bool response_expected_;
  reply_status status_ = reply_status::no_exception;
  core::reply_sink* sink_;
  cdr::output_stream* reply_ = nullptr;
  instrument::phase_timer* timer_;
};

}  // namespace switchyard
