// The thread-pool model's workers (-ORBThreads N): event loops read and frame requests and queue
// a copy of each here; N workers serve them and send the replies, so a slow servant holds one
// worker, not a loop. The queue is bounded (-ORBMaxQueuedRequests, and the copies draw on the
// server's buffer budget): when it is full a loop stops reading the connection that wanted more,
// and resumes it when a worker frees a place (backpressure, not memory). Internal to orb/core.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "orb/base/page_allocator.h"
#include "orb/giop/fragment_continuation.h"
#include "orb/giop/message_header.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/instrument.h"

namespace switchyard::core {

class server;
class server_connection;

class worker_pool {
 public:
  worker_pool(server& owner, unsigned threads, std::size_t max_queued);
  ~worker_pool();
  worker_pool(const worker_pool&) = delete;
  worker_pool& operator=(const worker_pool&) = delete;

  // A loop's thread: whether one more request may be queued now. If not, `connection` is
  // resumed (resume_reading, posted to its loop) once a worker has taken a request.
  bool has_room(server_connection& connection);
  // A loop's thread: queues a copy of `message`; false if the budget refused the copy.
  bool submit(std::shared_ptr<server_connection> connection, const giop::message_view& message);

  // A worker whose upcall waits for a reply (a nested call): serves one queued request in its
  // own thread, nested, if there is one (true), so that workers all waiting on each other's
  // requests never deadlock.
  bool serve_one(cdr::output_stream& replies, instrument::probe_table& probes);

  // Waits, at most `limit`, until nothing is queued and no worker serves.
  void drain(std::chrono::milliseconds limit) noexcept;
  // Stops the workers (after the request each is serving) and drops what is still queued. A
  // worker still in a servant at `deadline` is left running; then false.
  bool stop(std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max()) noexcept;
  std::size_t queued() const;

 private:
  using octet_buffer = std::vector<std::byte, page_allocator<std::byte>>;
  struct item {
    std::shared_ptr<server_connection> connection;
    octet_buffer bytes;
    std::size_t reserved = 0;  // drawn from the budget for `bytes`
    // A reassembled GIOP 1.1 request's Fragment boundaries (message_view::fragments), if any.
    giop::owned_fragments fragments;
  };
  void work();
  // With the lock held and an item queued: takes it (and resumes a connection waiting for room).
  void take(std::unique_lock<std::mutex>& lock, item& taken);
  // Serves `taken` without the lock, then gives its buffer back (taking the lock).
  void serve(item& taken, cdr::output_stream& replies, instrument::probe_table& probes,
             std::unique_lock<std::mutex>& lock);

  server& owner_;
  std::size_t max_queued_;
  mutable std::mutex mutex_;         // guards everything below
  std::condition_variable ready_;    // an item was queued, or stopping
  std::condition_variable drained_;  // the queue emptied and no worker serves
  std::vector<item> ring_;           // a circular queue: no allocation per request
  std::size_t head_ = 0;
  std::size_t count_ = 0;
  std::size_t serving_ = 0;
  std::vector<octet_buffer> spare_;
  std::vector<std::weak_ptr<server_connection>> waiting_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
  std::size_t working_ = 0;  // threads in work(), not yet left
};

}  // namespace switchyard::core
