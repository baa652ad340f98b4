#include "orb/core/server_loop.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "orb/core/server.h"
#include "orb/core/server_connection.h"

namespace switchyard::core {

server_loop::server_loop(server& owner, instrument::probe_table& probes)
    : owner_(owner), probes_(&probes), home_replies_(4096) {}

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
  const int dispatched = round(timeout);
  // A former leader waits to lead again (the loop was handed over while it ran a servant).
  if (waiting_to_lead_.load(std::memory_order_relaxed) != 0) [[unlikely]]
    step_aside();
  return dispatched;
}

int server_loop::round(std::chrono::milliseconds timeout) {
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
    // It leads as it leaves: the loop goes to a former leader that waits, or is left vacant.
    std::unique_lock lock(lead_mutex_);
    home_done_ = true;
    if (!pass_on(lock)) vacant_ = true;
    lead_passed_.notify_all();
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

bool server_loop::stop(bool graceful, std::chrono::steady_clock::time_point deadline, bool home_busy) noexcept {
  if (stopping_.exchange(true)) return true;
  try {
    end_all(graceful);
  } catch (...) {
  }
  events_.wake();
  // Wait for the loop's own thread, the spare that leads it and every former leader to be done:
  // then nobody leads, and this thread may.
  bool quiet = !home_busy;
  if (quiet) {
    std::unique_lock lock(lead_mutex_);
    quiet = lead_passed_.wait_until(
        lock, deadline, [&] { return (home_done_ || !thread_.joinable()) && spares_leading_ == 0 && former_.empty(); });
  }
  if (!quiet) {
    // A servant has not returned: take the loop from it (and never give it back), end every
    // connection, and leave its thread running.
    const bool seized = seize();
    if (seized) {
      report_cut_off();
      // The servant's thread still holds the leader's stream and table: the last rounds below
      // get their own (kept with the server).
      try {
        probes_ = &owner_.lease_probe_table();
        replies_ = &stop_replies_.emplace(4096);
      } catch (...) {
      }
    }
    if (thread_.joinable()) thread_.detach();
    if (!seized) {
      std::fprintf(stderr, "switchyard: shutdown: an event loop did not stop in time; its connections are left\n");
      return false;
    }
  } else if (thread_.joinable()) {
    thread_.join();
  }
  {
    std::lock_guard lock(lead_mutex_);
    vacant_ = false;
  }
  events_.take_thread();
  // Whatever was posted and not yet run (the end_all above, adoptions) runs here, in this thread
  // now that no other runs the loop.
  try {
    events_.run_once(std::chrono::milliseconds(0));
    events_.run_once(std::chrono::milliseconds(0));
  } catch (...) {
  }
  while (!connections_.empty()) connections_.back()->end(graceful);
  if (!quiet) return false;  // what the servants left running stand on stays
  ended_.clear();
  retired_buffers_.clear();
  return true;
}

bool server_loop::seize() noexcept {
  {
    std::lock_guard lock(lead_mutex_);
    abandoned_ = true;
    if (vacant_) {
      vacant_ = false;
      return true;
    }
  }
  // The leader is in servant code (the one to blame), or will leave the loop at its next round.
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::uint64_t state = lead_state_.load(std::memory_order_acquire);
    if ((state & (in_servant | handed_over)) == in_servant &&
        lead_state_.compare_exchange_strong(state, state | handed_over, std::memory_order_acq_rel)) {
      std::lock_guard lock(lead_mutex_);
      try {
        former_.push_back({events_.loop_thread(), nullptr, nullptr, servant_connection_->shared_from_this()});
      } catch (...) {
      }
      return true;
    }
    {
      std::lock_guard lock(lead_mutex_);
      if (vacant_) {
        vacant_ = false;
        return true;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

void server_loop::report_cut_off() noexcept {
  std::lock_guard lock(lead_mutex_);
  for (const former_leader& former : former_) {
    if (!former.suspended) continue;
    std::fprintf(stderr,
                 "switchyard: shutdown: a request from %s is still in its servant; left running, it gets no "
                 "reply\n",
                 former.suspended->peer_address().c_str());
  }
}

server_loop::nested_wait::nested_wait(server_loop& loop, upcall_frame& upcall)
    : loop_(loop), frame_(upcall), upcall_(upcall.connection.shared_from_this()), replies_(4096) {
  loop_.retired_buffers_.emplace_back();  // before anything changes: it may throw
  // The servant code pauses: this thread runs rounds now (after waiting to lead again, if the
  // loop was handed over meanwhile).
  if (loop_.hands_over_) loop_.servant_ends(frame_.servant_mark);
  ++loop_.nested_depth_;
  upcall_->suspend_for_nested_wait(loop_.retired_buffers_.back());
  outer_replies_ = std::exchange(loop_.replies_, &replies_);
}

server_loop::nested_wait::~nested_wait() {
  loop_.replies_ = outer_replies_;
  upcall_->resume_after_nested_wait();
  --loop_.nested_depth_;
  if (loop_.hands_over_) frame_.servant_mark = loop_.servant_begins(*upcall_);
}

// ---- Leadership --------------------------------------------------------------------------------

bool server_loop::try_hand_over(std::uint64_t& last_seen) noexcept {
  std::uint64_t now = lead_state_.load(std::memory_order_acquire);
  const bool same_servant_code = (now & (in_servant | handed_over)) == in_servant && now == last_seen;
  last_seen = now;
  if (!same_servant_code || stopping_.load(std::memory_order_relaxed)) return false;
  // Fails if the servant code ended meanwhile.
  if (!lead_state_.compare_exchange_strong(now, now | handed_over, std::memory_order_acq_rel)) return false;
  last_seen = 0;
  return true;
}

void server_loop::cancel_handover() noexcept {
  std::unique_lock lock(lead_mutex_);
  if (!pass_on(lock)) vacant_ = true;
}

void server_loop::lead_as_spare(cdr::output_stream& replies, instrument::probe_table& probes) noexcept {
  // The loop is ours (try_hand_over): the former leader is still in the servant code of
  // servant_connection_'s request. That connection goes on being read, with the request's buffer
  // set aside until the former leader is done with it; if it cannot be, it is not read meanwhile.
  std::shared_ptr<server_connection> suspended;
  try {
    suspended = servant_connection_->shared_from_this();
    retired_buffers_.emplace_back();
    std::lock_guard lock(lead_mutex_);
    former_.push_back({events_.loop_thread(), replies_, probes_, suspended});
    waiting_.reserve(former_.size());  // wait_to_lead cannot fail for want of room
    ++spares_leading_;
  } catch (...) {
    cancel_handover();  // no memory: the former leader goes on when its servant returns
    return;
  }
  ++nested_depth_;
  suspended->suspend_for_nested_wait(retired_buffers_.back());
  replies_ = &replies;
  probes_ = &probes;
  events_.take_thread();
  lead_count_ += lead_step;
  lead_state_.store(lead_count_, std::memory_order_release);
  while (!stopping_.load(std::memory_order_acquire) && waiting_to_lead_.load(std::memory_order_relaxed) == 0) {
    try {
      round(std::chrono::milliseconds(1000));
    } catch (...) {
      // epoll failed (it does not, short of a kernel bug): keep serving rather than die.
    }
  }
  std::unique_lock lock(lead_mutex_);
  --spares_leading_;
  if (!pass_on(lock)) vacant_ = true;
  lead_passed_.notify_all();  // a stop() may wait for the spares to leave
}

void server_loop::step_aside() noexcept {
  std::unique_lock lock(lead_mutex_);
  if (waiting_.empty()) return;
  try {
    former_.push_back({std::this_thread::get_id(), replies_, probes_, nullptr});
    waiting_.reserve(former_.size());
  } catch (...) {
    return;  // no memory: lead on; the one waiting is passed the loop at a later round
  }
  pass_on(lock);
  wait_to_lead(lock);
}

void server_loop::take_back() noexcept {
  std::unique_lock lock(lead_mutex_);
  wait_to_lead(lock);
}

bool server_loop::pass_on(std::unique_lock<std::mutex>&) noexcept {
  if (waiting_.empty() || abandoned_) return false;
  passed_to_ = waiting_.front();
  waiting_.erase(waiting_.begin());
  waiting_to_lead_.store(static_cast<unsigned>(waiting_.size()), std::memory_order_relaxed);
  lead_passed_.notify_all();
  return true;
}

void server_loop::wait_to_lead(std::unique_lock<std::mutex>& lock) noexcept {
  const std::thread::id self = std::this_thread::get_id();
  if (vacant_ && !abandoned_) {
    vacant_ = false;
  } else {
    // Bounded by the leader's round: it looks at waiting_to_lead_ at the end of each, and is woken.
    // The vector has room: a place is reserved for every former leader.
    waiting_.push_back(self);
    waiting_to_lead_.store(static_cast<unsigned>(waiting_.size()), std::memory_order_relaxed);
    events_.wake();
    lead_passed_.wait(lock, [&] { return passed_to_ == self; });
    passed_to_ = {};
  }
  std::shared_ptr<server_connection> suspended;
  auto mine = std::find_if(former_.begin(), former_.end(), [&](const former_leader& f) { return f.thread == self; });
  if (mine != former_.end()) {
    replies_ = mine->replies;
    probes_ = mine->probes;
    suspended = std::move(mine->suspended);
    former_.erase(mine);
  }
  lock.unlock();
  events_.take_thread();
  if (suspended) {
    suspended->resume_after_nested_wait();
    --nested_depth_;
  }
  lead_count_ += lead_step;
  lead_state_.store(lead_count_, std::memory_order_release);
}

}  // namespace switchyard::core
