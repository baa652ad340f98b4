// The threads dedicated to one connection each (thread per connection, and the adaptive model's
// first N connections): a thread blocks in recv on its connection and serves it until it ends,
// then waits a while for the next connection before it leaves, so a server whose clients come
// and go does not create a thread per connection. Each thread leases one probe table for its life
// and gives it back when it leaves (tables are reused, not piled up). Internal to orb/core.
#pragma once

#include <chrono>
#include <condition_variable>
#include <list>
#include <memory>
#include <mutex>
#include <thread>

namespace switchyard::core {

class server;
class server_connection;

class connection_threads {
 public:
  explicit connection_threads(server& owner) : owner_(owner) {}
  ~connection_threads();
  connection_threads(const connection_threads&) = delete;
  connection_threads& operator=(const connection_threads&) = delete;

  // Serves `connection` in a waiting thread, or a new one. False if no thread could be made.
  bool serve(std::shared_ptr<server_connection> connection);
  // Connections being served now.
  std::size_t busy() const;
  std::size_t thread_count() const;
  // Joins the threads that have left.
  void reap() noexcept;
  // Asks every connection being served to end (CloseConnection first if `graceful`), makes the
  // waiting threads leave, and joins every thread. Later serve() calls are refused. A thread
  // still in a servant at `deadline` is left running (named on stderr); then false.
  bool stop(bool graceful,
            std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max()) noexcept;

 private:
  struct worker {
    std::thread thread;
    std::shared_ptr<server_connection> connection;  // being served, or handed over
    bool idle = false;                              // waiting for a connection
    bool finished = false;                          // left; to be joined
    std::condition_variable handed_over;
  };
  void run(worker& self);

  // How long a thread whose connection ended waits for another, and how many may wait at once.
  static constexpr std::chrono::seconds linger{10};
  static constexpr std::size_t max_idle = 16;

  server& owner_;
  mutable std::mutex mutex_;  // guards everything below
  std::list<worker> workers_;
  std::condition_variable left_;  // a thread finished
  std::size_t busy_ = 0;
  std::size_t idle_ = 0;
  bool stopping_ = false;
};

}  // namespace switchyard::core
