#include "transports/event_loop.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "transports/transport_errors.h"

namespace switchyard::transports {

io_handler::~io_handler() = default;

namespace {

// epoll's data word: the descriptor and the generation of its registration.
constexpr std::uint64_t pack(native_handle handle, std::uint32_t generation) noexcept {
  return (static_cast<std::uint64_t>(generation) << 32) | static_cast<std::uint32_t>(handle);
}
// The wake-up eventfd's data word: generation 0 is never given to a registration.
constexpr std::uint32_t wake_generation = 0;

std::uint32_t epoll_mask(unsigned interest) noexcept {
  std::uint32_t mask = 0;
  if (interest & io_events::readable) mask |= EPOLLIN | EPOLLRDHUP;
  if (interest & io_events::writable) mask |= EPOLLOUT;
  return mask;
}

}  // namespace

event_loop::event_loop() {
  epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd_ < 0) throw_errno(SystemExceptionKind::NO_RESOURCES, 0, CompletionStatus::no, "epoll_create1", errno);
  wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake_fd_ < 0) {
    const int error = errno;
    ::close(epoll_fd_);
    throw_errno(SystemExceptionKind::NO_RESOURCES, 0, CompletionStatus::no, "eventfd", error);
  }
  epoll_event wake{};
  wake.events = EPOLLIN;
  wake.data.u64 = pack(wake_fd_, wake_generation);
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &wake) != 0) {
    const int error = errno;
    ::close(wake_fd_);
    ::close(epoll_fd_);
    throw_errno(SystemExceptionKind::NO_RESOURCES, 0, CompletionStatus::no, "epoll_ctl(eventfd)", error);
  }
}

event_loop::~event_loop() {
  ::close(wake_fd_);
  ::close(epoll_fd_);
}

void event_loop::add(native_handle handle, io_handler& handler, unsigned interest) {
  if (handle < 0)
    throw SystemException(SystemExceptionKind::BAD_PARAM, 0, CompletionStatus::no, "registering an invalid handle");
  const auto index = static_cast<std::size_t>(handle);
  if (index >= slots_.size()) slots_.resize(index + 64);
  slot& entry = slots_[index];
  if (entry.handler != nullptr)
    throw SystemException(SystemExceptionKind::BAD_PARAM, 0, CompletionStatus::no,
                          "handle " + std::to_string(handle) + " is already registered");
  std::uint32_t generation = next_generation_++;
  if (generation == wake_generation) generation = next_generation_++;
  epoll_event event{};
  event.events = epoll_mask(interest);
  event.data.u64 = pack(handle, generation);
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, handle, &event) != 0)
    throw_errno(SystemExceptionKind::NO_RESOURCES, 0, CompletionStatus::no,
                "registering handle " + std::to_string(handle) + " with epoll", errno);
  entry = {&handler, generation};
  ++registered_;
}

void event_loop::modify(native_handle handle, unsigned interest) {
  if (!is_registered(handle)) return;
  epoll_event event{};
  event.events = epoll_mask(interest);
  event.data.u64 = pack(handle, slots_[static_cast<std::size_t>(handle)].generation);
  if (::epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, handle, &event) != 0)
    throw_errno(SystemExceptionKind::NO_RESOURCES, 0, CompletionStatus::no,
                "changing the events of handle " + std::to_string(handle), errno);
}

void event_loop::remove(native_handle handle) noexcept {
  if (!is_registered(handle)) return;
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, handle, nullptr);
  slots_[static_cast<std::size_t>(handle)] = {};
  --registered_;
}

bool event_loop::is_registered(native_handle handle) const noexcept {
  return handle >= 0 && static_cast<std::size_t>(handle) < slots_.size() &&
         slots_[static_cast<std::size_t>(handle)].handler != nullptr;
}

int event_loop::run_once(std::chrono::milliseconds timeout) {
  owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  constexpr int batch = 64;
  epoll_event ready[batch];
  const int wait_ms = timeout.count() <= 0 ? 0 : static_cast<int>(std::min<long long>(timeout.count(), 1 << 30));
  int count = ::epoll_wait(epoll_fd_, ready, batch, wait_ms);
  batch_time_ = std::chrono::steady_clock::now();
  if (count < 0) {
    if (errno != EINTR) throw_errno(SystemExceptionKind::INTERNAL, 0, CompletionStatus::no, "epoll_wait", errno);
    count = 0;
  }
  int dispatched = 0;
  bool woken = false;
  for (int i = 0; i < count; ++i) {
    const std::uint64_t data = ready[i].data.u64;
    const auto handle = static_cast<native_handle>(static_cast<std::uint32_t>(data));
    const auto generation = static_cast<std::uint32_t>(data >> 32);
    if (generation == wake_generation) {
      woken = true;
      continue;
    }
    // Removed (or replaced) earlier in this batch: the event is not for the handler there now.
    const slot& entry = slots_[static_cast<std::size_t>(handle)];
    if (entry.handler == nullptr || entry.generation != generation) continue;
    unsigned events = io_events::none;
    const std::uint32_t mask = ready[i].events;
    if (mask & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) events |= io_events::readable;
    if (mask & (EPOLLOUT | EPOLLERR)) events |= io_events::writable;
    if (mask & (EPOLLHUP | EPOLLERR)) events |= io_events::hangup;
    entry.handler->on_io(handle, events);
    ++dispatched;
  }
  if (woken) {
    std::uint64_t drained;
    [[maybe_unused]] auto got = ::read(wake_fd_, &drained, sizeof drained);
  }
  run_tasks();
  return dispatched;
}

void event_loop::run_tasks() {
  // Nothing posted (the usual round): no lock. A task posted after the look wakes the next round.
  if (posted_count_.load(std::memory_order_acquire) != 0) {
    // Tasks may post more; those run in the next round (bounded work per round). The batch is a
    // local: a task's request may wait for a reply in a nested round, which runs tasks too. The
    // vectors trade places so that none allocates in the steady state.
    std::vector<std::function<void()>> tasks;
    tasks.swap(spare_tasks_);
    {
      std::lock_guard lock(posted_mutex_);
      tasks.swap(posted_);
      posted_count_.store(0, std::memory_order_relaxed);
    }
    for (auto& task : tasks) task();
    tasks.clear();
    if (tasks.capacity() > spare_tasks_.capacity()) tasks.swap(spare_tasks_);
  }
  if (!deferred_.empty()) {
    std::vector<std::function<void()>> now;
    now.swap(deferred_);
    for (auto& task : now) task();
  }
}

bool event_loop::work_pending() const noexcept {
  epoll_event ready[1];
  // epoll_wait with a zero timeout would consume nothing we cannot see again: level-triggered.
  return ::epoll_wait(epoll_fd_, ready, 1, 0) > 0;
}

void event_loop::post(std::function<void()> task) {
  {
    std::lock_guard lock(posted_mutex_);
    posted_.push_back(std::move(task));
    posted_count_.store(posted_.size(), std::memory_order_release);
  }
  wake();
}

void event_loop::wake() noexcept {
  const std::uint64_t one = 1;
  [[maybe_unused]] auto put = ::write(wake_fd_, &one, sizeof one);
}

}  // namespace switchyard::transports
