// An event loop over epoll: handles registered with the events they are interested in (readable,
// writable), level-triggered, never re-armed per event; tasks posted from other threads; a tick
// for housekeeping. The server's connections and listeners sit on it (orb/core/server_loop).
//
// Why not ACE_Dev_Poll_Reactor: ACE registers handles one-shot, so every request cost an
// epoll_wait and a re-arming epoll_ctl, and its dispatch takes a token per event; this loop costs
// one epoll_wait per batch of ready handles (docs/design.md, "Concurrency", has the figures).
//
// Thread rules: one thread runs a loop (run_once). add, modify and remove are for that thread
// only (or before the loop runs); post() and wake() are for any thread. A handler removed while
// a batch is being dispatched gets no further event from that batch, even if its descriptor
// number is registered again meanwhile (registrations carry a generation).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "transports/connection.h"

namespace switchyard::transports {

// What a handler wants to hear about, and what it is told.
namespace io_events {
inline constexpr unsigned none = 0;
inline constexpr unsigned readable = 1;  // also: the peer closed, or the socket has an error
inline constexpr unsigned writable = 2;  // also: the socket has an error
inline constexpr unsigned hangup = 4;    // told, never asked for: the peer is gone or the socket failed
}  // namespace io_events

class io_handler {
 public:
  virtual ~io_handler();
  // In the loop's thread: `events` (io_events bits) are ready on `handle`.
  virtual void on_io(native_handle handle, unsigned events) = 0;
};

class event_loop {
 public:
  event_loop();
  ~event_loop();
  event_loop(const event_loop&) = delete;
  event_loop& operator=(const event_loop&) = delete;

  // Loop thread only. `handler` is not owned and must stay alive until removed (and until the
  // batch that removed it has been dispatched: see defer()). Adding a registered handle throws
  // BAD_PARAM; an epoll failure throws NO_RESOURCES naming the error.
  void add(native_handle handle, io_handler& handler, unsigned interest);
  void modify(native_handle handle, unsigned interest);
  // Does nothing if `handle` is not registered. Remove before closing the descriptor.
  void remove(native_handle handle) noexcept;
  bool is_registered(native_handle handle) const noexcept;
  std::size_t handler_count() const noexcept { return registered_; }

  // One round: waits at most `timeout` (0: not at all) for ready handles, dispatches them, then
  // runs the tasks posted and deferred meanwhile. Returns how many handlers it called.
  int run_once(std::chrono::milliseconds timeout);
  // Whether a handle is ready or a task is posted, without dispatching.
  bool work_pending() const noexcept;

  // Any thread: runs `task` in the loop's thread after its current batch, and wakes it.
  void post(std::function<void()> task);
  // Any thread: makes the current or next run_once return soon.
  void wake() noexcept;
  // Loop thread: runs `task` after the current batch (no lock, no wake-up). For releasing what a
  // handler still stands on while its batch is dispatched.
  void defer(std::function<void()> task) { deferred_.push_back(std::move(task)); }

  // The loop's thread: the one in run_once now or last (set by run_once; any thread may ask).
  bool in_loop_thread() const noexcept { return std::this_thread::get_id() == owner_.load(std::memory_order_relaxed); }
  std::thread::id loop_thread() const noexcept { return owner_.load(std::memory_order_relaxed); }
  // The calling thread runs the loop from now on (it was handed over between threads): before
  // its first round, so that in_loop_thread() says so at once.
  void take_thread() noexcept { owner_.store(std::this_thread::get_id(), std::memory_order_relaxed); }
  // The time the current batch began (read once per epoll_wait return, for cheap timestamps).
  std::chrono::steady_clock::time_point batch_time() const noexcept { return batch_time_; }
  // The epoll descriptor: readable while a handle is ready or a task is posted. A thread that
  // must wait for something else too (a reply, inside an upcall it serves) polls it beside that,
  // and calls run_once(0) when it is readable. run_once may be called again from inside a handler
  // (such a nested wait): a nested round dispatches its own batch and runs the tasks posted since.
  // Also from inside a task (a task may serve a request whose servant waits so).
  native_handle poll_handle() const noexcept { return epoll_fd_; }

 private:
  struct slot {
    io_handler* handler = nullptr;
    std::uint32_t generation = 0;
  };
  void run_tasks();

  int epoll_fd_ = -1;
  int wake_fd_ = -1;         // eventfd: post() and wake() write it
  std::vector<slot> slots_;  // indexed by descriptor
  std::size_t registered_ = 0;
  std::uint32_t next_generation_ = 1;
  std::atomic<std::thread::id> owner_{};
  std::chrono::steady_clock::time_point batch_time_{};

  std::mutex posted_mutex_;                   // guards posted_
  std::atomic<std::size_t> posted_count_{0};  // posted_.size(), read without the lock
  std::vector<std::function<void()>> posted_;
  std::vector<std::function<void()>> spare_tasks_;  // an empty vector with capacity, for run_tasks
  std::vector<std::function<void()>> deferred_;     // loop thread only
};

}  // namespace switchyard::transports
