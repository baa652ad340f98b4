#include "orb/core/connection_threads.h"

#include <cstdio>
#include <system_error>
#include <vector>

#include "orb/core/server.h"
#include "orb/core/server_connection.h"

namespace switchyard::core {

connection_threads::~connection_threads() { stop(false); }

bool connection_threads::serve(std::shared_ptr<server_connection> connection) {
  std::lock_guard lock(mutex_);
  if (stopping_) return false;
  for (worker& w : workers_) {
    if (!w.idle) continue;
    w.idle = false;
    --idle_;
    ++busy_;
    w.connection = std::move(connection);
    w.handed_over.notify_one();
    return true;
  }
  worker& w = workers_.emplace_back();
  w.connection = std::move(connection);
  try {
    w.thread = std::thread([this, &w] { run(w); });
  } catch (const std::system_error&) {
    workers_.pop_back();  // no thread to be had (EAGAIN): the caller ends the connection
    return false;
  }
  ++busy_;
  return true;
}

void connection_threads::run(worker& self) {
  instrument::probe_table& probes = owner_.lease_probe_table();
  cdr::output_stream replies(4096);
  std::unique_lock lock(mutex_);
  while (self.connection) {
    std::shared_ptr<server_connection> connection = self.connection;
    lock.unlock();
    connection->serve_dedicated(probes, replies);
    connection.reset();
    lock.lock();
    self.connection.reset();
    --busy_;
    if (stopping_ || idle_ >= max_idle) break;
    self.idle = true;
    ++idle_;
    self.handed_over.wait_for(lock, linger, [&] { return self.connection || stopping_; });
    if (self.idle) {  // nobody handed a connection over: leave
      self.idle = false;
      --idle_;
    }
  }
  self.finished = true;
  left_.notify_all();
  lock.unlock();
  owner_.give_back_probe_table(probes);
}

std::size_t connection_threads::busy() const {
  std::lock_guard lock(mutex_);
  return busy_;
}

std::size_t connection_threads::thread_count() const {
  std::lock_guard lock(mutex_);
  return workers_.size();
}

void connection_threads::reap() noexcept {
  std::list<worker> done;
  {
    std::lock_guard lock(mutex_);
    for (auto it = workers_.begin(); it != workers_.end();) {
      auto next = std::next(it);
      if (it->finished) done.splice(done.end(), workers_, it);
      it = next;
    }
  }
  for (worker& w : done)
    if (w.thread.joinable()) w.thread.join();
}

bool connection_threads::stop(bool graceful, std::chrono::steady_clock::time_point deadline) noexcept {
  std::vector<std::shared_ptr<server_connection>> serving;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    for (worker& w : workers_) {
      if (w.connection) serving.push_back(w.connection);
      w.handed_over.notify_one();
    }
  }
  for (auto& connection : serving) connection->request_close(graceful);
  serving.clear();
  // Joined outside the lock (the threads take it to leave). A thread that calls stop() itself
  // (a servant destroying its ORB) stays listed and is detached; so is one whose servant has
  // not returned by the deadline.
  const auto self = std::this_thread::get_id();
  std::list<worker> all;
  bool all_left = true;
  {
    std::unique_lock lock(mutex_);
    all_left = left_.wait_until(lock, deadline, [&] {
      for (const worker& w : workers_)
        if (!w.finished && w.thread.get_id() != self) return false;
      return true;
    });
    for (auto it = workers_.begin(); it != workers_.end();) {
      auto next = std::next(it);
      if (it->finished) {
        all.splice(all.end(), workers_, it);
      } else if (it->thread.joinable()) {
        if (it->thread.get_id() != self && it->connection) {
          it->connection->cut_off();
          std::fprintf(stderr,
                       "switchyard: shutdown: a request from %s is still in its servant; left running, it gets "
                       "no reply\n",
                       it->connection->peer_address().c_str());
        }
        it->thread.detach();
      }
      it = next;
    }
  }
  for (worker& w : all)
    if (w.thread.joinable()) w.thread.join();
  return all_left;
}

}  // namespace switchyard::core
