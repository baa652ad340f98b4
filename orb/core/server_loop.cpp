#include "orb/core/server_loop.h"

#include <utility>

#include "orb/core/server.h"
#include "orb/core/server_connection.h"

namespace switchyard::core {

server_loop::server_loop(server& owner, instrument::probe_table& probes)
    : owner_(owner), probes_(probes), replies_(4096) {}

server_loop::~server_loop() { stop(false); }

void server_loop::adopt(std::shared_ptr<server_connection> connection) {
  // Known as this loop's before the task runs: a request_close meanwhile posts here, behind it.
  connection->assigned_loop_.store(this, std::memory_order_release);
  events_.post([this, connection = std::move(connection)]() mutable {
    if (!connection->is_open()) return;
    try {
      connection->attach(*this);
    } catch (...) {
      // Could not register with epoll (out of memory): the connection ends here (end() counts it
      // as ended, once).
      connection->end(false, "could not join an event loop");
      return;
    }
    connection->loop_index_ = connections_.size();
    connections_.push_back(connection);
    // Asked to close on its way here (from a dedicated thread): now that the loop drives it.
    if (connection->close_requested_.load()) connection->end(connection->close_gracefully_.load(), "asked to close");
  });
}

void server_loop::forget(server_connection& connection) noexcept {
  const std::size_t index = connection.loop_index_;
  if (index >= connections_.size() || connections_[index].get() != &connection) return;
  ended_.push_back(std::move(connections_[index]));
  if (index + 1 != connections_.size()) {
    connections_[index] = std::move(connections_.back());
    connections_[index]->loop_index_ = index;
  }
  connections_.pop_back();
}

int server_loop::run_once(std::chrono::milliseconds timeout) {
  auto now = std::chrono::steady_clock::now();
  if (next_tick_ == std::chrono::steady_clock::time_point{}) next_tick_ = now + owner_.tick_interval();
  const auto until_tick =
      std::chrono::duration_cast<std::chrono::milliseconds>(next_tick_ - now) + std::chrono::milliseconds(1);
  const int dispatched = events_.run_once(std::max(std::chrono::milliseconds(0), std::min(timeout, until_tick)));
  now = events_.batch_time();
  if (now >= next_tick_) {
    tick(now);
    next_tick_ = now + owner_.tick_interval();
  }
  // A nested round's connections may still be on the stack of the round around it.
  if (nested_depth_ == 0) {
    ended_.clear();
    retired_buffers_.clear();
  }
  return dispatched;
}

void server_loop::tick(std::chrono::steady_clock::time_point now) noexcept {
  // Backwards: a connection that ends is swapped with the last one, which was checked already.
  for (std::size_t i = connections_.size(); i-- > 0;) {
    if (i < connections_.size()) connections_[i]->check_deadlines(now);
  }
  owner_.on_tick(*this, now);
}

void server_loop::start() {
  thread_ = std::thread([this] {
    while (!stopping_.load(std::memory_order_acquire)) {
      try {
        run_once(std::chrono::milliseconds(1000));
      } catch (...) {
        // epoll failed (it does not, short of a kernel bug): keep serving rather than die.
      }
    }
  });
}

void server_loop::end_all(bool graceful) {
  events_.post([this, graceful] {
    while (!connections_.empty()) connections_.back()->end(graceful);
  });
}

void server_loop::pause_all() {
  events_.post([this] {
    for (auto& connection : connections_) connection->pause_reading();
  });
}

void server_loop::stop(bool graceful) noexcept {
  if (stopping_.exchange(true)) return;
  try {
    end_all(graceful);
  } catch (...) {
  }
  events_.wake();
  if (thread_.joinable()) thread_.join();
  // Whatever was posted and not yet run (the end_all above, adoptions) runs here, in this thread
  // now that no other runs the loop.
  try {
    events_.run_once(std::chrono::milliseconds(0));
    events_.run_once(std::chrono::milliseconds(0));
  } catch (...) {
  }
  while (!connections_.empty()) connections_.back()->end(graceful);
  ended_.clear();
  retired_buffers_.clear();
}

server_loop::nested_wait::nested_wait(server_loop& loop, server_connection& upcall)
    : loop_(loop), upcall_(upcall.shared_from_this()), replies_(4096) {
  loop_.retired_buffers_.emplace_back();  // before anything changes: it may throw
  ++loop_.nested_depth_;
  upcall_->suspend_for_nested_wait(loop_.retired_buffers_.back());
  std::swap(loop_.replies_, replies_);
}

server_loop::nested_wait::~nested_wait() {
  std::swap(loop_.replies_, replies_);
  upcall_->resume_after_nested_wait();
  --loop_.nested_depth_;
}

}  // namespace switchyard::core
