// One event loop of the server and the connections it drives: reads them as they become
// readable, serves their requests inline (or queues them for the worker pool), flushes replies
// the socket could not take at once, and checks every connection's deadlines once a tick.
// Loop 0 is run by the thread in ORB::run() and also holds the listeners; the others have
// threads of their own. Internal to orb/core.
//
// Thread rules: the loop's own thread does everything but adopt(), end_all() and stop(), which
// any thread may call. The loop owns its connections (a shared_ptr each); one that ends is kept
// until the batch that ended it has been dispatched.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "orb/base/page_allocator.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/instrument.h"
#include "transports/event_loop.h"

namespace switchyard::core {

class server;
class server_connection;

class server_loop {
 public:
  server_loop(server& owner, instrument::probe_table& probes);
  ~server_loop();
  server_loop(const server_loop&) = delete;
  server_loop& operator=(const server_loop&) = delete;

  transports::event_loop& events() noexcept { return events_; }
  instrument::probe_table& probes() noexcept { return probes_; }
  // The reply stream of the requests served inline (one at a time in this thread).
  cdr::output_stream& replies() noexcept { return replies_; }

  // Any thread: `connection` joins this loop (in the loop's thread, at its next round).
  void adopt(std::shared_ptr<server_connection> connection);
  // Loop thread: a connection that ended leaves the list (and is released after this batch).
  void forget(server_connection& connection) noexcept;
  std::size_t connection_count() const noexcept { return connections_.size(); }

  // Loop thread: one round (events, posted tasks, and the tick when it is due); waits at most
  // `timeout`, less when a tick falls due sooner.
  int run_once(std::chrono::milliseconds timeout);

  // A thread of its own running rounds until stop().
  void start();
  // Any thread: ends every connection (CloseConnection first if `graceful`), then stops the
  // loop's thread if it has one and joins it. Idempotent.
  void stop(bool graceful) noexcept;
  // Any thread: ends every connection at the loop's next round, without stopping it.
  void end_all(bool graceful);
  // Any thread: stops reading every connection (requests being served go on), for a drain.
  void pause_all();

  // The loop's thread, inside an upcall it serves inline that waits for a reply (a nested call):
  // while it lives, rounds may run nested (run_once(0) from inside the upcall) and serve the
  // loop's other connections, accept, tick. The upcall's connection is kept alive and not timed
  // out, and goes on being read once the buffer holding the waiting request is set aside (see
  // server_connection::suspend_for_nested_wait); inline requests served meanwhile write their
  // replies into a reply stream of their own (the outer request's stays as it is); connections
  // that end, and buffers set aside, are released only by the outermost round.
  class nested_wait {
   public:
    nested_wait(server_loop& loop, server_connection& upcall);
    ~nested_wait();
    nested_wait(const nested_wait&) = delete;
    nested_wait& operator=(const nested_wait&) = delete;

   private:
    server_loop& loop_;
    std::shared_ptr<server_connection> upcall_;
    cdr::output_stream replies_;
  };

 private:
  void tick(std::chrono::steady_clock::time_point now) noexcept;

  server& owner_;
  transports::event_loop events_;
  instrument::probe_table& probes_;
  cdr::output_stream replies_;
  std::vector<std::shared_ptr<server_connection>> connections_;
  std::vector<std::shared_ptr<server_connection>> ended_;  // released after the batch
  std::vector<page_block> retired_buffers_;                // requests' buffers set aside by nested waits
  std::chrono::steady_clock::time_point next_tick_{};
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  unsigned nested_depth_ = 0;  // nested_wait objects alive (loop thread)
};

}  // namespace switchyard::core
