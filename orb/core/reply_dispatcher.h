// The reply thread of asynchronous calls (switchyard/ami.h): one per ORB, started by its first
// asynchronous call. It waits for the replies of every outstanding call at once, on every
// connection they went out on (poll(2) on their sockets, and an eventfd that wakes it for a new
// call or a reply another thread stashed), reads them as any waiting caller would (the
// connection's reader role, its stash), and completes each call: its reply handler runs, or its
// poller is told. Internal to orb/core.
//
// A new call does not wake the thread while it is awake (it looks at the new calls before it
// sleeps), nor when it is the first call since the thread ran out of calls and the thread polls
// its connection already: the reply wakes it. For that, the thread keeps polling the
// connections of the last calls it completed ("lingering") until they show a sign of life of
// their own; so a caller making one asynchronous call after another costs no extra wake-up of
// the thread each (docs/experiments.md, "Pipelined asynchronous calls").
#pragma once

#include <poll.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "orb/core/client_connection.h"
#include "switchyard/ami.h"

namespace switchyard::core {

class orb_impl;

// What the polling model keeps of a completed call for its poller.
struct poller_state {
  std::mutex mutex;
  std::condition_variable completed;
  bool done = false;
  bool results_taken = false;
  std::unique_ptr<async_call> call;  // kept while its results are read
  cdr::input_stream* results = nullptr;
  std::exception_ptr raised;
};

// One outstanding asynchronous call: its deferred invocation and what completes it.
struct async_call {
  async_call(const object_ref& target, std::string_view operation_name, std::uint32_t operation_index,
             ami::argument_writer write_arguments, user_exception_raiser raiser)
      : operation(operation_name),
        arguments(std::move(write_arguments)),
        raise_user(raiser),
        call(deferred_call, target, operation, operation_index) {
    if (!arguments) arguments = [](cdr::output_stream&) {};  // an operation without in arguments
  }

  // The ORB whose reply thread completes the call: the target's.
  orb_impl& call_target_orb() const noexcept;

  std::string operation;  // before `call`, which views it
  ami::argument_writer arguments;
  user_exception_raiser raise_user;
  invocation call;
  // Exactly one of the two.
  ami::reply_callback on_reply;
  std::shared_ptr<poller_state> poller;
};

class reply_dispatcher final : public stash_listener, public std::enable_shared_from_this<reply_dispatcher> {
 public:
  // Starts the thread; it holds the dispatcher (not the ORB: each call holds its target's ORB)
  // until it ends.
  static std::shared_ptr<reply_dispatcher> start();
  ~reply_dispatcher();
  reply_dispatcher(const reply_dispatcher&) = delete;
  reply_dispatcher& operator=(const reply_dispatcher&) = delete;

  // Takes a call whose request has been sent. BAD_INV_ORDER once stopped.
  void add(std::unique_ptr<async_call> call);
  // The outstanding calls complete with BAD_INV_ORDER (the ORB is shut down) and the thread
  // ends; waits for it, unless called from it (a reply handler that shuts the ORB down).
  void stop() noexcept;
  // A connection it waits on stashed a reply (read by another thread: its socket stays quiet).
  void reply_stashed() noexcept override { wake(); }

 private:
  reply_dispatcher();
  void run() noexcept;
  // Completes what has come or timed out; true if something was (or more came meanwhile).
  bool sweep();
  // A call whose reply has come: read it and complete the call, or keep it if sent again.
  void finish(std::unique_ptr<async_call> call);
  void complete(std::unique_ptr<async_call> call, cdr::input_stream* results, std::exception_ptr raised) noexcept;
  // Waits until a socket of an outstanding call is readable, a call is added, the earliest
  // deadline passes, or stop().
  void wait_for_activity();
  void wake() noexcept;
  // Whether a call added now needs the eventfd written (under mutex_).
  bool needs_wake(async_call& call) const;
  // Keeps polling a completed call's connection for the next call on it.
  void linger_on(const std::shared_ptr<client_connection>& connection);

  int wake_fd_ = -1;  // an eventfd
  std::mutex mutex_;
  std::vector<std::unique_ptr<async_call>> added_;  // sent, not yet seen by the thread
  bool stopping_ = false;
  // From the thread's going to sleep in poll until it next looks at added_ (under mutex_): what
  // it polls (the eventfd first) and when it wakes at the latest.
  bool sleeping_ = false;
  bool sleeping_with_calls_ = false;  // asleep with calls outstanding
  std::vector<pollfd> polled_;
  std::optional<std::chrono::steady_clock::time_point> sleeping_until_;
  std::thread thread_;
  // The thread's own: outstanding calls in the order they were sent.
  std::vector<std::unique_ptr<async_call>> outstanding_;
  // The thread's own: connections of calls lately completed, polled until their first event
  // that no call of ours explains (then a synchronous caller is using them), at most
  // max_lingering, the oldest dropped first.
  static constexpr std::size_t max_lingering = 16;
  std::vector<std::weak_ptr<client_connection>> lingering_;
};

}  // namespace switchyard::core
