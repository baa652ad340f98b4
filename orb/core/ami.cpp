// Asynchronous calls (switchyard/ami.h): sent here, in the caller's thread, as deferred calls;
// their replies completed by the ORB's reply thread (reply_dispatcher).
#include "switchyard/ami.h"

#include "orb/core/object_state.h"
#include "orb/core/orb_impl.h"
#include "orb/core/reply_dispatcher.h"
#include "switchyard/exception.h"

namespace switchyard::ami {

namespace {

// Sends `call`'s request and hands it to its ORB's reply thread.
void send(std::unique_ptr<core::async_call> call) {
  std::shared_ptr<core::reply_dispatcher> replies = call->call_target_orb().replies();
  call->call.send_deferred(call->arguments);
  replies->add(std::move(call));
}

}  // namespace

void send_callback(const object_ref& target, std::string_view operation, argument_writer arguments,
                   reply_callback on_reply, user_exception_raiser raise_user, std::uint32_t operation_index) {
  auto call = std::make_unique<core::async_call>(target, operation, operation_index, std::move(arguments), raise_user);
  call->on_reply = std::move(on_reply);
  send(std::move(call));
}

poller send_poller(const object_ref& target, std::string_view operation, argument_writer arguments,
                   user_exception_raiser raise_user, std::uint32_t operation_index) {
  auto call = std::make_unique<core::async_call>(target, operation, operation_index, std::move(arguments), raise_user);
  auto state = std::make_shared<core::poller_state>();
  call->poller = state;
  send(std::move(call));
  return poller(std::move(state));
}

poller::poller(std::shared_ptr<core::poller_state> state) noexcept : state_(std::move(state)) {}
poller::poller(poller&&) noexcept = default;
poller& poller::operator=(poller&&) noexcept = default;
poller::~poller() = default;

bool poller::is_ready(std::chrono::milliseconds timeout) const {
  if (state_ == nullptr)
    throw SystemException(SystemExceptionKind::BAD_INV_ORDER, 0, CompletionStatus::no, "is_ready on a nil poller");
  std::unique_lock lock(state_->mutex);
  auto done = [this] { return state_->done; };
  if (timeout >= forever) state_->completed.wait(lock, done);
  else state_->completed.wait_for(lock, timeout, done);
  return state_->done;
}

cdr::input_stream& poller::results(std::chrono::milliseconds timeout) {
  if (!is_ready(timeout))
    throw SystemException(SystemExceptionKind::TIMEOUT, minor::omg_minor(0), CompletionStatus::no,
                          "the reply has not come within the poller's timeout");
  std::lock_guard lock(state_->mutex);
  if (state_->results_taken)
    throw SystemException(SystemExceptionKind::OBJECT_NOT_EXIST, 0, CompletionStatus::no,
                          "this poller's reply was returned already");
  state_->results_taken = true;
  if (state_->raised) std::rethrow_exception(state_->raised);
  return *state_->results;
}

}  // namespace switchyard::ami
