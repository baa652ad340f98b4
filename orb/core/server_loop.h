// One event loop of the server and the connections it drives: reads them as they become
// readable, serves their requests inline (or queues them for the worker pool), flushes replies
// the socket could not take at once, and checks every connection's deadlines once a tick.
// Loop 0 is run by the thread in ORB::run() and also holds the listeners; the others have
// threads of their own. Internal to orb/core.
//
// Thread rules: the thread that leads the loop does everything but adopt(), end_all() and
// stop(), which any thread may call. The leader is the loop's own thread, except while it is
// handed over (below). The loop owns its connections (a shared_ptr each); one that ends is kept
// until the batch that ended it has been dispatched.
//
// Leadership (the adaptive model; docs/design.md, "A servant that blocks"): an inline upcall runs
// in the leader's thread, so a servant that blocks would hold up every connection of the loop.
// The leader marks its servant code (servant_begins/servant_ends: a store and a compare-exchange,
// nothing else on the fast path). The server's watchdog (loop_handover) looks at the mark every
// -ORBHandoverAfter; seen in the same servant code twice in a row, the loop is handed to a spare
// thread (lead_as_spare), which leads it from then on. The old leader finishes its upcall alone
// (its connection is read by the new leader meanwhile, as in a nested wait), then waits to lead
// again (take_back) before it touches the loop: the leader passes the loop on at the end of its
// next round to whoever waits (step_aside), and a spare leaves once it has.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "orb/base/page_allocator.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/instrument.h"
#include "transports/event_loop.h"

namespace switchyard::core {

class server;
class server_connection;
struct upcall_frame;

class server_loop {
 public:
  server_loop(server& owner, instrument::probe_table& probes);
  ~server_loop();
  server_loop(const server_loop&) = delete;
  server_loop& operator=(const server_loop&) = delete;

  transports::event_loop& events() noexcept { return events_; }
  // The leader's probe table, and the reply stream of the requests it serves inline (one at a
  // time): each leading thread has its own.
  instrument::probe_table& probes() noexcept { return *probes_; }
  cdr::output_stream& replies() noexcept { return *replies_; }

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
  // loop's thread if it has one and joins it. Idempotent. Bounded by `deadline`: a servant that
  // has not returned by then is left running (its loop is taken from it, its connection ended,
  // and it waits for ever once it returns: the server must then outlive it, see server::stop);
  // each is named on stderr. `home_busy`: the loop's driver outside it (ORB::run, loop 0) is
  // still in a round. False if a servant was left running.
  bool stop(bool graceful, std::chrono::steady_clock::time_point deadline, bool home_busy = false) noexcept;
  bool stop(bool graceful) noexcept { return stop(graceful, std::chrono::steady_clock::time_point::max()); }

  // ---- Leadership (see the top of the file) ----
  // Whether servant code is marked (served inline: reactive, adaptive), so that a watchdog
  // (adaptive) or a bounded stop may take the loop from a servant that blocks.
  bool hands_over() const noexcept { return hands_over_; }
  void mark_servants() noexcept { hands_over_ = true; }
  // Leader: the servant code of an inline request of `upcall` begins; the mark goes to
  // servant_ends (or to a nested_wait through the upcall's frame).
  std::uint64_t servant_begins(server_connection& upcall) noexcept {
    servant_connection_ = &upcall;
    lead_count_ += lead_step;
    const std::uint64_t mark = lead_count_ | in_servant;
    lead_state_.store(mark, std::memory_order_release);
    return mark;
  }
  // The thread whose servant code `mark` is ends it. If the loop was handed over meanwhile, it
  // first waits to lead again.
  void servant_ends(std::uint64_t mark) noexcept {
    const std::uint64_t next = (mark & ~(in_servant | handed_over)) + lead_step;
    if (lead_state_.compare_exchange_strong(mark, next, std::memory_order_acq_rel)) [[likely]]
      lead_count_ = next;
    else take_back();
  }
  // Watchdog (any thread): hands the loop over if the leader is in the servant code it was in at
  // the last look (`last_seen`, updated). True: a spare thread must now call lead_as_spare (or,
  // if none can be had, cancel_handover).
  bool try_hand_over(std::uint64_t& last_seen) noexcept;
  // Whether a mark try_hand_over left in `last_seen` is one of servant code.
  static bool in_servant_code(std::uint64_t seen) noexcept { return (seen & in_servant) != 0; }
  void cancel_handover() noexcept;
  // Any thread: a spare leads the loop, or a former leader has yet to take it back.
  bool led_elsewhere() noexcept {
    std::lock_guard lock(lead_mutex_);
    return spares_leading_ != 0 || !former_.empty();
  }
  // A spare thread, after try_hand_over: leads the loop until a former leader wants it back or
  // the loop stops. `replies` and `probes` are the spare's own.
  void lead_as_spare(cdr::output_stream& replies, instrument::probe_table& probes) noexcept;
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
    nested_wait(server_loop& loop, upcall_frame& upcall);
    ~nested_wait();
    nested_wait(const nested_wait&) = delete;
    nested_wait& operator=(const nested_wait&) = delete;

   private:
    server_loop& loop_;
    upcall_frame& frame_;
    std::shared_ptr<server_connection> upcall_;
    cdr::output_stream replies_;
    cdr::output_stream* outer_replies_;
  };

 private:
  // lead_state_: the leader's mark; in_servant while it runs servant code, handed_over once the
  // watchdog has taken the loop from it; a count above, so that no two marks are equal.
  static constexpr std::uint64_t in_servant = 1;
  static constexpr std::uint64_t handed_over = 2;
  static constexpr std::uint64_t lead_step = 4;
  // A thread that led the loop and will again: what it led with, and the connection whose
  // upcall it was running when the loop was taken from it (suspended meanwhile), if any.
  struct former_leader {
    std::thread::id thread;
    cdr::output_stream* replies;
    instrument::probe_table* probes;
    std::shared_ptr<server_connection> suspended;
  };

  [[gnu::always_inline]] inline int round(std::chrono::milliseconds timeout);
  void tick(std::chrono::steady_clock::time_point now) noexcept;
  // The current leader, at the end of a round, when a former leader waits: passes it the loop and
  // waits to lead again.
  void step_aside() noexcept;
  // A former leader: waits until the loop is passed to it, then leads with what it led with.
  void take_back() noexcept;
  // With lead_mutex_ held: passes the loop to the first waiting former leader (false: none).
  bool pass_on(std::unique_lock<std::mutex>& lock) noexcept;
  // With lead_mutex_ held: waits for the loop to be passed to this thread (or left vacant), then
  // leads with what it led with. Once the loop is abandoned (a bounded stop), for ever.
  void wait_to_lead(std::unique_lock<std::mutex>& lock) noexcept;
  // stop() past its deadline: takes the loop from whoever holds it in servant code, or as left
  // vacant; false if a leader is in the loop's own code (it sees the stop by itself).
  bool seize() noexcept;
  // Names on stderr the requests whose servants are left running.
  void report_cut_off() noexcept;

  server& owner_;
  transports::event_loop events_;
  instrument::probe_table* probes_;
  cdr::output_stream home_replies_;
  cdr::output_stream* replies_ = &home_replies_;
  std::optional<cdr::output_stream> stop_replies_;  // a stop that seized the loop from a servant
  std::vector<std::shared_ptr<server_connection>> connections_;
  std::vector<std::shared_ptr<server_connection>> ended_;  // released after the batch
  std::vector<page_block> retired_buffers_;                // requests' buffers set aside by nested waits
  std::chrono::steady_clock::time_point next_tick_{};
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  // nested_wait objects alive, and former leaders with a connection suspended: while any is,
  // requests' buffers set aside and connections ended stay (some thread's stack holds them).
  unsigned nested_depth_ = 0;

  // Leadership.
  bool hands_over_ = false;
  std::atomic<std::uint64_t> lead_state_{0};
  std::uint64_t lead_count_ = 0;                     // the leader's
  server_connection* servant_connection_ = nullptr;  // the leader's: whose servant code it runs
  std::atomic<unsigned> waiting_to_lead_{0};         // size of waiting_, read at every round's end
  std::mutex lead_mutex_;                            // guards what follows
  std::condition_variable lead_passed_;
  std::vector<former_leader> former_;     // every former leader (waiting or still in its upcall)
  std::vector<std::thread::id> waiting_;  // former leaders waiting to lead again, in order
  std::thread::id passed_to_{};           // the thread the loop was last passed to
  bool vacant_ = false;                   // nobody leads: the next to take it back does
  unsigned spares_leading_ = 0;           // 0 or 1
  bool home_done_ = false;                // the loop's own thread has left (start())
  bool abandoned_ = false;                // stopped past its deadline: never passed on again
};

}  // namespace switchyard::core
