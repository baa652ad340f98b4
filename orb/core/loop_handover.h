// The adaptive model's watchdog and spare threads: an event loop whose leader has run one
// servant longer than -ORBHandoverAfter is handed to a spare thread, so that a servant that
// blocks (a database, a file, a call out) holds up its own request only (server_loop,
// "Leadership"; docs/design.md, "A servant that blocks"). Internal to orb/core.
//
// The watchdog is a thread that looks at each loop's mark every -ORBHandoverAfter, and only
// while the server has connections on its loops; it costs nothing per request. Spares are
// threads that wait to be lent; one is made when none waits, at most max_spares in all (beyond,
// a loop whose leader blocks waits for it, as without a watchdog); a spare that has waited
// `linger` without being lent leaves.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <list>
#include <mutex>
#include <thread>
#include <vector>

namespace switchyard::core {

class server;
class server_loop;

class loop_handover {
 public:
  loop_handover(server& owner, std::vector<server_loop*> loops, std::chrono::milliseconds after);
  ~loop_handover();
  loop_handover(const loop_handover&) = delete;
  loop_handover& operator=(const loop_handover&) = delete;

  // Any thread: the watchdog starts looking (a connection joined a loop). Idempotent.
  void watch();
  // Stops the watchdog (no loop is handed over from now on).
  void stop_watching() noexcept;
  // Stops the watchdog, and the spares once they have left their loops (stop the loops first:
  // a spare leaves the loop it leads when the loop stops). Waits at most until `deadline` for
  // the spares; false if one was still leading then (its thread is left running).
  bool stop(std::chrono::steady_clock::time_point deadline) noexcept;

  // Spares lent now (for tests and the trace).
  std::size_t spares_leading() const;

  static constexpr std::size_t max_spares = 64;
  static constexpr std::chrono::seconds linger{10};

 private:
  struct spare {
    std::thread thread;
    server_loop* lent_to = nullptr;
    bool finished = false;
    std::condition_variable lent;
  };
  void look();
  // Lends a waiting spare, or a new one, to `loop` (handed over already); false if none can be had.
  bool lend(server_loop& loop);
  void run(spare& self);

  server& owner_;
  const std::vector<server_loop*> loops_;
  const std::chrono::milliseconds after_;
  mutable std::mutex mutex_;  // guards everything below
  std::condition_variable wake_watchdog_;
  std::thread watchdog_;
  bool watching_ = false;
  bool stopping_ = false;
  std::list<spare> spares_;
  std::size_t waiting_spares_ = 0;
  std::size_t lent_ = 0;
};

}  // namespace switchyard::core
