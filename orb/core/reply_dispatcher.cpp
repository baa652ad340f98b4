#include "orb/core/reply_dispatcher.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <optional>
#include <utility>

#include "orb/core/invocation_state.h"
#include "orb/core/object_state.h"
#include "switchyard/exception.h"
#include "switchyard/object_io.h"

namespace switchyard::core {

namespace {

std::exception_ptr shut_down_before_reply(const std::string& operation) {
  return std::make_exception_ptr(SystemException(SystemExceptionKind::BAD_INV_ORDER, minor::omg_minor(4),
                                                 CompletionStatus::maybe,
                                                 "the ORB was shut down before the reply to '" + operation + "' came"));
}

}  // namespace

orb_impl& async_call::call_target_orb() const noexcept { return call.target_.state()->orb(); }

std::shared_ptr<reply_dispatcher> reply_dispatcher::start() {
  std::shared_ptr<reply_dispatcher> dispatcher(new reply_dispatcher());
  dispatcher->thread_ = std::thread([self = dispatcher] { self->run(); });
  return dispatcher;
}

reply_dispatcher::reply_dispatcher() : wake_fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  if (wake_fd_ < 0)
    throw SystemException(SystemExceptionKind::NO_RESOURCES, 0, CompletionStatus::no,
                          "no eventfd for the reply thread of asynchronous calls");
}

reply_dispatcher::~reply_dispatcher() {
  // The last holder is the thread itself once it has ended, or the ORB after it has ended.
  if (thread_.joinable()) {
    if (thread_.get_id() == std::this_thread::get_id()) thread_.detach();
    else thread_.join();
  }
  ::close(wake_fd_);
}

void reply_dispatcher::add(std::unique_ptr<async_call> call) {
  bool wake_thread = false;
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      wake_thread = needs_wake(*call);
      added_.push_back(std::move(call));
      call = nullptr;
    }
  }
  if (call != nullptr) {
    call->call.forget_reply();
    std::rethrow_exception(shut_down_before_reply(call->operation));
  }
  if (wake_thread) wake();
}

bool reply_dispatcher::needs_wake(async_call& call) const {
  if (!sleeping_) return false;  // it looks at added_ before it sleeps again
  // Spared only for the first call after the thread ran out of calls, when it polls the call's
  // connection already. With calls outstanding (or a second call), waking it at once is what
  // measured best on one CPU: it keeps up with a pipelining caller (docs/experiments.md,
  // "Pipelined asynchronous calls").
  if (sleeping_with_calls_ || !added_.empty()) return true;
  invocation_state& state = state_of(call.call.state_);
  if (state.deadline && (!sleeping_until_ || *state.deadline < *sleeping_until_)) return true;
  if (state.reply_taken || state.bound.connection == nullptr) return true;
  const int fd = state.bound.connection->handle();
  return std::none_of(polled_.begin() + 1, polled_.end(), [fd](const pollfd& p) { return p.fd == fd; });
}

void reply_dispatcher::linger_on(const std::shared_ptr<client_connection>& connection) {
  if (connection == nullptr) return;
  for (auto& known : lingering_)
    if (known.lock() == connection) return;
  if (lingering_.size() == max_lingering) lingering_.erase(lingering_.begin());
  lingering_.push_back(connection);
}

void reply_dispatcher::stop() noexcept {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake();
  if (thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void reply_dispatcher::wake() noexcept {
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto written = ::write(wake_fd_, &one, sizeof one);
}

void reply_dispatcher::run() noexcept {
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      sleeping_ = false;  // awake since poll returned: new calls are seen here
      if (stopping_) break;
      for (auto& call : added_) outstanding_.push_back(std::move(call));
      added_.clear();
    }
    if (!sweep()) wait_for_activity();
  }
  // Stopped: what is still outstanding will get no reply read.
  std::vector<std::unique_ptr<async_call>> left = std::move(outstanding_);
  {
    std::lock_guard lock(mutex_);
    for (auto& call : added_) left.push_back(std::move(call));
    added_.clear();
  }
  for (auto& call : left) {
    call->call.forget_reply();
    std::exception_ptr raised = shut_down_before_reply(call->operation);
    complete(std::move(call), nullptr, std::move(raised));
  }
}

bool reply_dispatcher::sweep() {
  bool progressed = false;
  // Connections this sweep read to the end of what had come: their calls' replies, if come,
  // are stashed, and need no further read.
  std::vector<const client_connection*> drained;
  const auto now = std::chrono::steady_clock::now();
  auto take = [this](std::size_t i) {
    std::unique_ptr<async_call> call = std::move(outstanding_[i]);
    outstanding_.erase(outstanding_.begin() + static_cast<std::ptrdiff_t>(i));
    return call;
  };
  for (std::size_t i = 0; i < outstanding_.size();) {
    async_call& pending = *outstanding_[i];
    invocation_state& state = state_of(pending.call.state_);
    client_connection* connection = state.bound.connection.get();
    bool arrived = false;
    std::exception_ptr failed;
    try {
      // Before looking: a reply stashed after the look wakes the thread's poll.
      if (connection != nullptr && !connection->tells_stashes()) connection->tell_stashes_to(weak_from_this());
      if (state.reply_taken || connection == nullptr) {
        arrived = true;
      } else if (std::find(drained.begin(), drained.end(), connection) != drained.end()) {
        arrived = state.reply_taken = connection->take_stashed_reply(state.request_id, state.reply);
      } else if (!(arrived = pending.call.reply_arrived())) {
        drained.push_back(connection);
      }
      // Read elsewhere from here on: the connection's reader role goes back now.
      if (state.reply_taken) state.reply.keep_copy();
    } catch (const SystemException&) {
      arrived = true;  // the connection ended: the call's own wait says so, or sends it again
    } catch (...) {
      failed = std::current_exception();
    }
    if (failed) {
      pending.call.forget_reply();
      complete(take(i), nullptr, std::move(failed));
    } else if (arrived) {
      if (state.reply_taken) linger_on(state.bound.connection);
      finish(take(i));
    } else if (state.deadline && *state.deadline <= now) {
      pending.call.forget_reply();
      auto raised = std::make_exception_ptr(
          SystemException(SystemExceptionKind::TIMEOUT, minor::omg_minor(0), CompletionStatus::maybe,
                          "no reply to '" + pending.operation + "' within its round-trip timeout"));
      complete(take(i), nullptr, std::move(raised));
    } else {
      ++i;
      continue;
    }
    progressed = true;
  }
  return progressed;
}

void reply_dispatcher::finish(std::unique_ptr<async_call> call) {
  // References in the results (or a user exception) bind to the target's ORB.
  reference_binding_scope binding(call->call_target_orb());
  cdr::input_stream* results = nullptr;
  std::exception_ptr raised;
  try {
    results = call->call.take_arrived_reply(call->arguments, call->raise_user);
  } catch (...) {
    raised = std::current_exception();
  }
  if (results == nullptr && !raised) {
    outstanding_.push_back(std::move(call));  // sent again: its new reply is awaited
    return;
  }
  complete(std::move(call), results, std::move(raised));
}

void reply_dispatcher::complete(std::unique_ptr<async_call> call, cdr::input_stream* results,
                                std::exception_ptr raised) noexcept {
  if (call->poller) {
    // The poller keeps the call (its results read from it); the call lets go of the poller.
    std::shared_ptr<poller_state> poller = std::move(call->poller);
    {
      std::lock_guard lock(poller->mutex);
      poller->results = results;
      poller->raised = std::move(raised);
      poller->call = std::move(call);
      poller->done = true;
    }
    poller->completed.notify_all();
    return;
  }
  try {
    if (raised) {
      const exception_holder holder(std::move(raised));
      call->on_reply(nullptr, &holder);
    } else {
      call->on_reply(results, nullptr);
    }
  } catch (...) {
    // What a reply handler throws has nowhere to go (the Messaging specification ignores it).
  }
  call.reset();  // may let go of the last reference to the ORB
}

void reply_dispatcher::wait_for_activity() {
  // polled_ changes only while sleeping_ is false; add() reads it only while it is true.
  polled_.assign(1, pollfd{wake_fd_, POLLIN, 0});
  auto poll_on = [this](int fd) {
    if (fd >= 0 && std::none_of(polled_.begin(), polled_.end(), [fd](const pollfd& p) { return p.fd == fd; }))
      polled_.push_back({fd, POLLIN, 0});
  };
  std::optional<std::chrono::steady_clock::time_point> earliest;
  for (const auto& pending : outstanding_) {
    invocation_state& state = state_of(pending->call.state_);
    if (state.deadline && (!earliest || *state.deadline < *earliest)) earliest = state.deadline;
    if (state.bound.connection != nullptr) poll_on(state.bound.connection->handle());
  }
  const std::size_t owned = polled_.size();  // [1, owned): sockets of outstanding calls
  std::erase_if(lingering_, [](const std::weak_ptr<client_connection>& c) { return c.expired(); });
  for (auto& weak : lingering_)
    if (auto connection = weak.lock()) poll_on(connection->handle());
  int timeout_ms = -1;
  if (earliest) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(*earliest - std::chrono::steady_clock::now()).count();
    timeout_ms = static_cast<int>(std::clamp<long long>(left + 1, 0, 1 << 30));
  }
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || !added_.empty()) return;  // no sleep: new calls to look at first
    sleeping_ = true;                          // until run() takes the lock again
    sleeping_with_calls_ = owned > 1;
    sleeping_until_ = earliest;
  }
  if (::poll(polled_.data(), polled_.size(), timeout_ms) <= 0) return;
  if ((polled_[0].revents & POLLIN) != 0) {
    std::uint64_t count;
    [[maybe_unused]] const auto got = ::read(wake_fd_, &count, sizeof count);
  }
  // A lingering connection's own event (a synchronous caller's reply, its end): stop polling it,
  // or the thread would wake for it until that caller reads.
  for (std::size_t i = owned; i < polled_.size(); ++i) {
    if (polled_[i].revents == 0) continue;
    std::erase_if(lingering_, [fd = polled_[i].fd](const std::weak_ptr<client_connection>& weak) {
      auto connection = weak.lock();
      return connection == nullptr || connection->handle() == fd;
    });
  }
}

}  // namespace switchyard::core
