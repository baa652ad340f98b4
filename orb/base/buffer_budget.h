// A budget of octets that buffers draw on before they grow: the server's one budget
// (-ORBMaxBufferedBytes) for every connection's receive buffer and reassembly (orb/giop), the
// requests queued for its workers and the replies its peers have not read (orb/core), so that no
// number of peers declaring huge messages makes the server allocate more. Internal to the ORB.
// Thread-safe (one atomic counter).
#pragma once

#include <atomic>
#include <cstddef>

namespace switchyard {

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

}  // namespace switchyard
