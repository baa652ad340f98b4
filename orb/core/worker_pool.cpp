#include "orb/core/worker_pool.h"

#include <algorithm>
#include <bit>
#include <cstdio>

#include "orb/core/server.h"
#include "orb/core/server_connection.h"
#include "orb/core/server_loop.h"

namespace switchyard::core {

namespace {

// Loops test for room, then queue, each in its own thread: between the two another loop may
// have queued one. Each loop overshoots by one at most; this many places cover them all.
constexpr std::size_t overshoot_places = 256;
// Copies of at most this size keep their buffer for the next request.
constexpr std::size_t spare_buffer_limit = 64 * 1024;
constexpr std::size_t max_spare_buffers = 64;
// A copy's buffer is at least this big and grows by powers of two, so that the small requests of
// a steady state, each landing in whichever spare buffer comes first, stop reallocating.
constexpr std::size_t min_copy_capacity = 1024;
// Spare buffers made up front (32 KiB): requests queued at once up to this many need no new one.
constexpr std::size_t initial_spare_buffers = 32;

}  // namespace

worker_pool::worker_pool(server& owner, unsigned threads, std::size_t max_queued)
    : owner_(owner), max_queued_(max_queued), ring_(max_queued + overshoot_places) {
  threads_.reserve(threads);
  spare_.reserve(max_spare_buffers);
  for (std::size_t i = 0; i < initial_spare_buffers; ++i) spare_.emplace_back().reserve(min_copy_capacity);
  working_ = threads;
  for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

worker_pool::~worker_pool() { stop(); }

bool worker_pool::has_room(server_connection& connection) {
  std::lock_guard lock(mutex_);
  if (count_ < max_queued_) return true;
  waiting_.push_back(connection.weak_from_this());
  return false;
}

bool worker_pool::submit(std::shared_ptr<server_connection> connection, const giop::message_view& message) {
  std::unique_lock lock(mutex_);
  if (stopping_ || count_ == ring_.size()) return false;
  octet_buffer bytes;
  if (!spare_.empty()) {
    bytes = std::move(spare_.back());
    spare_.pop_back();
  }
  lock.unlock();
  if (bytes.capacity() < message.bytes.size())
    bytes.reserve(std::bit_ceil(std::max(message.bytes.size(), min_copy_capacity)));
  bytes.assign(message.bytes.begin(), message.bytes.end());
  // A large copy draws on the budget like a receive buffer; small ones are bounded by the
  // queue's length (-ORBMaxQueuedRequests), so small requests are always taken.
  const std::size_t reserved = bytes.capacity() > spare_buffer_limit ? bytes.capacity() : 0;
  if (reserved != 0 && !owner_.budget().try_reserve(reserved)) return false;
  giop::owned_fragments fragments;
  if (message.fragments != nullptr) [[unlikely]]
    fragments = giop::copy_fragments(*message.fragments);
  lock.lock();
  if (stopping_ || count_ == ring_.size()) {
    owner_.budget().release(reserved);
    return false;
  }
  item& slot = ring_[(head_ + count_) % ring_.size()];
  slot.connection = std::move(connection);
  slot.bytes = std::move(bytes);
  slot.reserved = reserved;
  slot.fragments = std::move(fragments);
  ++count_;
  lock.unlock();
  ready_.notify_one();
  return true;
}

void worker_pool::work() {
  cdr::output_stream replies(4096);
  instrument::probe_table& probes = owner_.lease_probe_table();
  std::unique_lock lock(mutex_);
  for (;;) {
    ready_.wait(lock, [this] { return stopping_ || count_ != 0; });
    if (stopping_) break;
    item taken;
    take(lock, taken);
    serve(taken, replies, probes, lock);
  }
  --working_;
  drained_.notify_all();  // stop() waits for the workers to leave
  lock.unlock();
  owner_.give_back_probe_table(probes);
}

bool worker_pool::serve_one(cdr::output_stream& replies, instrument::probe_table& probes) {
  std::unique_lock lock(mutex_);
  if (stopping_ || count_ == 0) return false;
  item taken;
  take(lock, taken);
  serve(taken, replies, probes, lock);
  return true;
}

void worker_pool::take(std::unique_lock<std::mutex>& lock, item& taken) {
  taken = std::move(ring_[head_]);
  head_ = (head_ + 1) % ring_.size();
  --count_;
  ++serving_;
  // A place is free: the connection waiting longest may read again.
  std::shared_ptr<server_connection> resumed;
  while (!waiting_.empty() && !resumed) {
    resumed = waiting_.front().lock();
    waiting_.erase(waiting_.begin());
  }
  lock.unlock();
  if (resumed) resumed->post_resume();
}

void worker_pool::serve(item& taken, cdr::output_stream& replies, instrument::probe_table& probes,
                        std::unique_lock<std::mutex>& lock) {
  {
    auto message = giop::make_message_view(taken.bytes, 0xffffffffu);
    message.fragments = taken.fragments.get();
    instrument::phase_timer timer(probes);
    taken.connection->serve_queued(message, replies, timer);
  }
  taken.connection.reset();
  taken.fragments.reset();
  owner_.budget().release(taken.reserved);
  lock.lock();
  --serving_;
  if (taken.bytes.capacity() <= spare_buffer_limit && spare_.size() < max_spare_buffers)
    spare_.push_back(std::move(taken.bytes));
  if (count_ == 0 && serving_ == 0) drained_.notify_all();
}

void worker_pool::drain(std::chrono::milliseconds limit) noexcept {
  std::unique_lock lock(mutex_);
  drained_.wait_for(lock, limit, [this] { return stopping_ || (count_ == 0 && serving_ == 0); });
}

bool worker_pool::stop(std::chrono::steady_clock::time_point deadline) noexcept {
  std::unique_lock lock(mutex_);
  if (stopping_ && threads_.empty()) return true;
  stopping_ = true;
  ready_.notify_all();
  drained_.notify_all();
  const bool all_left = drained_.wait_until(lock, deadline, [&] { return working_ == 0; });
  if (!all_left)
    std::fprintf(stderr, "switchyard: shutdown: %zu requests are still in their servants; left running\n", serving_);
  lock.unlock();
  for (auto& thread : threads_) {
    if (!thread.joinable()) continue;
    if (all_left) thread.join();
    else thread.detach();
  }
  threads_.clear();
  lock.lock();
  for (; count_ != 0; --count_) {
    item& left = ring_[head_];
    owner_.budget().release(left.reserved);
    left = {};
    head_ = (head_ + 1) % ring_.size();
  }
  waiting_.clear();
  return all_left;
}

std::size_t worker_pool::queued() const {
  std::lock_guard lock(mutex_);
  return count_;
}

}  // namespace switchyard::core
