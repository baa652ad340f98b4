#include "orb/core/loop_handover.h"

#include <system_error>

#include "orb/core/server.h"
#include "orb/core/server_loop.h"
#include "switchyard/cdr/output_stream.h"

namespace switchyard::core {

loop_handover::loop_handover(server& owner, std::vector<server_loop*> loops, std::chrono::milliseconds after)
    : owner_(owner), loops_(std::move(loops)), after_(after) {}

loop_handover::~loop_handover() { stop(std::chrono::steady_clock::time_point::max()); }

void loop_handover::watch() {
  std::lock_guard lock(mutex_);
  if (watching_ || stopping_) return;
  watchdog_ = std::thread([this] { look(); });
  watching_ = true;
}

void loop_handover::look() {
  // A servant is handed over once seen in the same servant code at two looks `after_` apart.
  // Looks come every 4 x after_ while no servant code is seen, every after_ once it is (to look
  // again at the same one) and for a second after a handover (servants that block do again).
  std::vector<std::uint64_t> last_seen(loops_.size(), 0);
  const auto relaxed = 4 * after_;
  auto period = relaxed;
  std::chrono::steady_clock::time_point alert_until{};
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_watchdog_.wait_for(lock, period, [&] { return stopping_; });
    if (stopping_) break;
    lock.unlock();
    bool in_servant_code = false;
    for (std::size_t i = 0; i < loops_.size(); ++i) {
      if (loops_[i]->try_hand_over(last_seen[i])) {
        if (!lend(*loops_[i])) loops_[i]->cancel_handover();
        alert_until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
      }
      in_servant_code = in_servant_code || server_loop::in_servant_code(last_seen[i]);
    }
    period = in_servant_code || std::chrono::steady_clock::now() < alert_until ? after_ : relaxed;
    lock.lock();
  }
}

bool loop_handover::lend(server_loop& loop) {
  std::lock_guard lock(mutex_);
  if (stopping_) return false;
  // Reap the spares that left, then lend one that waits, or make one.
  for (auto it = spares_.begin(); it != spares_.end();) {
    auto next = std::next(it);
    if (it->finished) {
      if (it->thread.joinable()) it->thread.join();
      spares_.erase(it);
    }
    it = next;
  }
  for (spare& s : spares_) {
    if (s.finished || s.lent_to != nullptr) continue;
    s.lent_to = &loop;
    --waiting_spares_;
    ++lent_;
    s.lent.notify_one();
    return true;
  }
  if (spares_.size() >= max_spares) return false;
  spare& made = spares_.emplace_back();
  made.lent_to = &loop;
  try {
    made.thread = std::thread([this, &made] { run(made); });
  } catch (const std::system_error&) {
    spares_.pop_back();  // no thread to be had (EAGAIN)
    return false;
  }
  ++lent_;
  return true;
}

void loop_handover::run(spare& self) {
  instrument::probe_table& probes = owner_.lease_probe_table();
  cdr::output_stream replies(4096);
  std::unique_lock lock(mutex_);
  while (self.lent_to != nullptr) {
    server_loop* loop = self.lent_to;
    lock.unlock();
    loop->lead_as_spare(replies, probes);
    lock.lock();
    self.lent_to = nullptr;
    --lent_;
    if (stopping_) break;
    ++waiting_spares_;
    self.lent.wait_for(lock, linger, [&] { return self.lent_to != nullptr || stopping_; });
    if (self.lent_to == nullptr) {
      --waiting_spares_;
      break;
    }
  }
  self.finished = true;
  wake_watchdog_.notify_all();  // stop() may wait for the spares
  lock.unlock();
  owner_.give_back_probe_table(probes);
}

std::size_t loop_handover::spares_leading() const {
  std::lock_guard lock(mutex_);
  return lent_;
}

void loop_handover::stop_watching() noexcept {
  std::unique_lock lock(mutex_);
  stopping_ = true;
  wake_watchdog_.notify_all();
  for (spare& s : spares_) s.lent.notify_all();
  std::thread watchdog = std::move(watchdog_);
  lock.unlock();
  if (watchdog.joinable()) watchdog.join();
}

bool loop_handover::stop(std::chrono::steady_clock::time_point deadline) noexcept {
  stop_watching();
  std::unique_lock lock(mutex_);
  // A spare leads until its loop stops, then leaves; one whose servant does not return stays.
  const bool all_left = wake_watchdog_.wait_until(lock, deadline, [&] {
    for (const spare& s : spares_)
      if (!s.finished) return false;
    return true;
  });
  std::list<spare> leaving;
  for (auto it = spares_.begin(); it != spares_.end();) {
    auto next = std::next(it);
    if (it->finished) leaving.splice(leaving.end(), spares_, it);
    it = next;
  }
  for (spare& s : spares_) s.thread.detach();  // left running: the server is kept (server::stop)
  lock.unlock();
  for (spare& s : leaving)
    if (s.thread.joinable()) s.thread.join();
  return all_left;
}

}  // namespace switchyard::core
