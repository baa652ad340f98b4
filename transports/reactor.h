// The reactor: waits for handles to become readable and calls their handlers. A thin wrapper over
// ACE_Reactor, with ACE kept behind a pointer so that this header stays light; the core's event
// loop and server loop sit on it.
//
// One thread at a time dispatches (perform_work() or run()); any thread may add or remove handlers,
// notify() or stop(). A thread pool later (ACE_TP_Reactor, or leader/followers over this class)
// would add a reactor_kind and let several threads call perform_work(): see INTERFACE.md.
#pragma once

#include <chrono>
#include <memory>

#include "transports/connection.h"

namespace switchyard::transports {

enum class reactor_kind {
  dev_poll,  // ACE_Dev_Poll_Reactor: epoll on Linux, cost per ready handle, not per registered one
  select,    // ACE_Select_Reactor: portable, select(2), at most FD_SETSIZE handles
};

// epoll where ACE has it (Linux), select elsewhere.
reactor_kind default_reactor_kind() noexcept;

class readable_handler {
 public:
  enum class disposition { keep, remove };
  virtual ~readable_handler();
  // Called in the dispatching thread when `handle` is readable (or closed by the peer: a read then
  // returns 0). Return remove to be unregistered. An exception also unregisters the handler and
  // is rethrown from perform_work()/run() once ACE's dispatch has finished.
  virtual disposition on_readable(native_handle handle) = 0;
};

class reactor {
 public:
  explicit reactor(reactor_kind kind = default_reactor_kind());
  ~reactor();
  reactor(const reactor&) = delete;
  reactor& operator=(const reactor&) = delete;

  reactor_kind kind() const noexcept { return kind_; }

  // Calls `handler` whenever `handle` is readable, until removed. The handler is not owned and
  // must outlive its registration. One handler per handle: adding a registered handle throws
  // BAD_PARAM. Remove a handle before closing it.
  void add_readable(native_handle handle, readable_handler& handler);
  // Unregisters `handle`; does nothing if it is not registered. Safe from inside a handler.
  void remove(native_handle handle) noexcept;
  bool is_registered(native_handle handle) const;
  std::size_t handler_count() const;

  // One round: waits at most `timeout` for events and dispatches the ready ones (or a notify()).
  // Returns how many handlers (and notifications) were dispatched; 0 when the timeout passed.
  int perform_work(std::chrono::milliseconds timeout);
  // Whether an event is ready now or within `timeout`, without dispatching it.
  bool work_pending(std::chrono::milliseconds timeout = std::chrono::milliseconds{0});

  // Dispatches events until stop(). stop() before run() makes the next run() return at once.
  void run();
  void stop() noexcept;
  // Wakes the thread blocked in perform_work()/run() (that round then returns). Any thread.
  void notify() noexcept;

  struct impl;  // ACE side, in reactor.cpp

 private:
  reactor_kind kind_;
  std::unique_ptr<impl> impl_;
};

}  // namespace switchyard::transports
