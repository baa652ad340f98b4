// The serving half of the ORB: the listeners, where each accepted connection is placed (a thread
// of its own, or an event loop), the event loops, the dedicated threads and the worker pool, and
// the limits every concurrency model enforces (docs/orb.md, "Concurrency" and "Limits").
// Internal to orb/core; orb_impl owns one.
//
// Threads: loop 0 (listeners and some connections) is run by the thread in ORB::run() or
// perform_work(); the other loops, the dedicated threads and the workers are the server's own,
// started when first needed. stop() ends everything; call it when nobody runs loop 0.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "orb/base/buffer_budget.h"
#include "orb/core/connection_threads.h"
#include "orb/core/orb_options.h"
#include "orb/ior/object_reference.h"
#include "switchyard/instrument.h"
#include "transports/acceptor.h"

namespace switchyard::core {

class loop_handover;
class orb_impl;
class server_loop;
class worker_pool;

class server {
 public:
  server(orb_impl& orb, instrument::probe_table_set& probes);
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  orb_impl& orb() noexcept { return orb_; }
  const orb_options& options() const noexcept { return options_; }
  const server_limits& limits() const noexcept { return options_.limits; }
  buffer_budget& budget() noexcept { return budget_; }
  // The worker pool (-ORBThreads N), or nullptr.
  worker_pool* pool() noexcept { return pool_.get(); }
  // How often deadlines are checked: a quarter of the shortest timeout, from 10 ms to 1 s.
  std::chrono::milliseconds tick_interval() const noexcept { return tick_; }
  // A probe table for a thread of the server, for as long as the thread lives.
  instrument::probe_table& lease_probe_table() { return probes_.lease(); }
  void give_back_probe_table(instrument::probe_table& table) noexcept { probes_.give_back(table); }

  // Opens a listening endpoint (any thread); it accepts once loop 0 runs.
  void listen(std::string_view endpoint);
  bool is_listening() const;
  std::vector<iop::endpoint> advertised_endpoints() const;

  // Loop 0, in the thread of ORB::run() / perform_work().
  int run_once(std::chrono::milliseconds timeout);
  bool work_pending();
  void wake() noexcept;
  // Stops accepting and ends every connection: with `graceful`, after the requests in progress
  // and with CloseConnection. Joins every thread of the server, within -ORBShutdownTimeout: a
  // servant that has not returned by then is left running, named on stderr, and the call returns
  // false; the server must then never be destroyed (its threads still stand on it).
  // `loop_zero_busy`: ORB::run's thread has not left loop 0 (its servant blocks). Idempotent.
  bool stop(bool graceful, bool loop_zero_busy = false) noexcept;
  // A stop left servants running.
  bool abandoned() const noexcept { return abandoned_; }

  // Connections accepted and not yet ended, in every model.
  std::size_t connection_count() const noexcept { return connections_.load(std::memory_order_relaxed); }
  // Adaptive: more connections are open than its dedicated threads should serve (twice
  // -ORBDedicatedThreads), so dedicated connections move to the loops between requests.
  bool crowded() const noexcept {
    return crowded_above_ != 0 && connections_.load(std::memory_order_relaxed) > crowded_above_ &&
           !stopped_.load(std::memory_order_relaxed);
  }
  // A dedicated thread hands its connection, between requests, to an event loop (any thread).
  void move_to_loop(std::shared_ptr<server_connection> connection);
  // A connection ended (each calls it once): counted down; accepting may resume.
  void connection_ended() noexcept;
  // A loop's tick (its thread): loop 0 reaps dedicated threads and retries accepting.
  void on_tick(server_loop& loop, std::chrono::steady_clock::time_point now) noexcept;

 private:
  class listener;
  enum class accept_pause : std::uint8_t { none, connections, descriptors };

  void accept_from(listener& from);
  void place(std::unique_ptr<transports::connection> accepted);
  server_loop& next_loop();
  void pause_accepting(accept_pause why, const std::string& detail);
  void resume_accepting() noexcept;

  orb_impl& orb_;
  const orb_options& options_;
  instrument::probe_table_set& probes_;
  buffer_budget budget_;
  std::chrono::milliseconds tick_;
  std::vector<std::unique_ptr<server_loop>> loops_;  // [0]: ORB::run's; others start when used
  std::mutex loops_mutex_;                           // guards loop_started_, next_loop_ and pool_'s creation
  std::vector<bool> loop_started_;
  std::size_t next_loop_ = 0;
  std::size_t crowded_above_ = 0;  // adaptive: 2 x -ORBDedicatedThreads; 0: never crowded
  std::unique_ptr<worker_pool> pool_;
  std::unique_ptr<loop_handover> handover_;  // adaptive, served inline: the loops' watchdog
  connection_threads dedicated_;

  mutable std::mutex listeners_mutex_;  // guards listeners_, advertised_
  std::vector<std::unique_ptr<listener>> listeners_;
  std::vector<iop::endpoint> advertised_;

  std::atomic<std::size_t> connections_{0};
  std::atomic<accept_pause> paused_{accept_pause::none};  // written by loop 0's thread
  std::chrono::steady_clock::time_point retry_accept_at_{};
  bool told_descriptors_ = false;  // said once in the log, per episode
  bool told_connections_ = false;
  std::atomic<bool> stopped_{false};
  std::mutex stop_mutex_;  // held through stop()
  std::atomic<bool> abandoned_{false};
};

}  // namespace switchyard::core
