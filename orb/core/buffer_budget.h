// The server-wide budget of octets held for incoming messages: every server connection's receive
// buffer and reassembly, and the requests queued for the worker pool, draw on one budget
// (-ORBMaxBufferedBytes), so that no number of peers declaring huge messages can make the server
// allocate more than that. Internal to orb/core. Thread-safe (one atomic counter).
#pragma once

#include <atomic>
#include <cstddef>

namespace switchyard::core {

class buffer_budget {
 public:
  explicit buffer_budget(std::size_t limit) noexcept : limit_(limit) {}
  buffer_budget(const buffer_budget&) = delete;
  buffer_budget& operator=(const buffer_budget&) = delete;

  // Takes `bytes` from the budget; false (and nothing taken) if that would pass the limit.
  bool try_reserve(std::size_t bytes) noexcept {
    const std::size_t before = in_use_.fetch_add(bytes, std::memory_order_relaxed);
    if (before + bytes <= limit_ && before + bytes >= before) return true;
    in_use_.fetch_sub(bytes, std::memory_order_relaxed);
    return false;
  }
  void release(std::size_t bytes) noexcept { in_use_.fetch_sub(bytes, std::memory_order_relaxed); }

  std::size_t in_use() const noexcept { return in_use_.load(std::memory_order_relaxed); }
  std::size_t limit() const noexcept { return limit_; }

 private:
  std::size_t limit_;
  std::atomic<std::size_t> in_use_{0};
};

}  // namespace switchyard::core
