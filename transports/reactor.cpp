#include "transports/reactor.h"

#include <ace/Dev_Poll_Reactor.h>
#include <ace/Reactor.h>
#include <ace/Select_Reactor.h>
#include <ace/Thread.h>

#include <atomic>
#include <cerrno>
#include <exception>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "transports/transport_errors.h"

namespace switchyard::transports {

readable_handler::~readable_handler() = default;

reactor_kind default_reactor_kind() noexcept {
#if defined(ACE_HAS_EVENT_POLL) || defined(ACE_HAS_DEV_POLL)
  return reactor_kind::dev_poll;
#else
  return reactor_kind::select;
#endif
}

namespace {

// The ACE face of one registration. Owned by the reactor's table; when unregistered it is retired
// rather than deleted, because ACE may still be inside its upcall; retired adapters are freed by
// the dispatching thread after ACE's handle_events() has returned.
class adapter final : public ACE_Event_Handler {
 public:
  adapter(reactor::impl& owner, native_handle handle, readable_handler& handler)
      : owner_(owner), handle_(handle), handler_(handler) {}

  ACE_HANDLE get_handle() const override { return handle_; }
  int handle_input(ACE_HANDLE handle) override;
  // We own the adapter; ACE calls this when handle_input() returned -1.
  int handle_close(ACE_HANDLE, ACE_Reactor_Mask) override;

  bool retired = false;  // guarded by impl::lock

 private:
  reactor::impl& owner_;
  native_handle handle_;
  readable_handler& handler_;
};

}  // namespace

struct reactor::impl {
  std::unique_ptr<ACE_Reactor> ace;
  mutable std::mutex lock;  // guards table and retired
  std::unordered_map<native_handle, std::unique_ptr<adapter>> table;
  std::vector<std::unique_ptr<adapter>> retired;
  // Adapters ACE refused to remove (their handle was closed while registered): ACE may still
  // point at them, so they live until the ACE reactor is gone.
  std::vector<std::unique_ptr<adapter>> orphans;
  std::exception_ptr failure;  // from a handler, rethrown by the dispatching thread
  std::atomic<bool> stop_requested{false};

  // Moves the registration of `handle` (if it is `which`, or any if null) to the retired list.
  bool retire(native_handle handle, const adapter* which) {
    std::lock_guard guard(lock);
    auto found = table.find(handle);
    if (found == table.end() || (which != nullptr && found->second.get() != which)) return false;
    found->second->retired = true;
    retired.push_back(std::move(found->second));
    table.erase(found);
    return true;
  }

  void free_retired() {
    std::vector<std::unique_ptr<adapter>> done;
    {
      std::lock_guard guard(lock);
      done.swap(retired);
    }
  }
};

namespace {

int adapter::handle_input(ACE_HANDLE handle) {
  {
    std::lock_guard guard(owner_.lock);
    if (retired) return 0;  // removed after the event was picked up: do not call the handler
  }
  try {
    return handler_.on_readable(handle) == readable_handler::disposition::keep ? 0 : -1;
  } catch (...) {
    if (!owner_.failure) owner_.failure = std::current_exception();
    return -1;
  }
}

int adapter::handle_close(ACE_HANDLE, ACE_Reactor_Mask) {
  owner_.retire(handle_, this);
  return 0;
}

}  // namespace

reactor::reactor(reactor_kind kind) : kind_(kind), impl_(std::make_unique<impl>()) {
  ACE_Reactor_Impl* chosen = nullptr;
  if (kind == reactor_kind::dev_poll) {
#if defined(ACE_HAS_EVENT_POLL) || defined(ACE_HAS_DEV_POLL)
    chosen = new ACE_Dev_Poll_Reactor;
#else
    throw SystemException(SystemExceptionKind::NO_IMPLEMENT, 0, CompletionStatus::no,
                          "ACE was built without the Dev_Poll reactor");
#endif
  } else {
    chosen = new ACE_Select_Reactor;
  }
  impl_->ace = std::make_unique<ACE_Reactor>(chosen, true /*delete implementation*/);
  if (!impl_->ace->initialized())
    throw SystemException(SystemExceptionKind::INITIALIZE, 0, CompletionStatus::no,
                          "ACE reactor failed to initialize");
}

reactor::~reactor() {
  // ACE closes the handlers still registered (calling their handle_close, which retires them), so
  // every adapter must outlive the ACE reactor: they are freed with impl_ afterwards.
  impl_->ace.reset();
}

void reactor::add_readable(native_handle handle, readable_handler& handler) {
  auto registration = std::make_unique<adapter>(*impl_, handle, handler);
  adapter* raw = registration.get();
  {
    std::lock_guard guard(impl_->lock);
    if (!impl_->table.emplace(handle, std::move(registration)).second)
      throw SystemException(SystemExceptionKind::BAD_PARAM, 0, CompletionStatus::no,
                            "handle " + std::to_string(handle) + " is already registered");
  }
  // Registered outside our lock: ACE takes its own token, and a handler running in the
  // dispatching thread may be waiting for our lock.
  if (impl_->ace->register_handler(raw, ACE_Event_Handler::READ_MASK) != 0) {
    const int error = errno;
    impl_->retire(handle, raw);
    throw_errno(SystemExceptionKind::BAD_PARAM, 0, CompletionStatus::no,
                "registering handle " + std::to_string(handle) + " with the reactor", error);
  }
}

void reactor::remove(native_handle handle) noexcept {
  adapter* raw = nullptr;
  {
    std::lock_guard guard(impl_->lock);
    auto found = impl_->table.find(handle);
    if (found == impl_->table.end()) return;
    raw = found->second.get();
  }
  const int removed =
      impl_->ace->remove_handler(raw, ACE_Event_Handler::READ_MASK | ACE_Event_Handler::DONT_CALL);
  if (impl_->retire(handle, raw) && removed != 0) {
    std::lock_guard guard(impl_->lock);
    impl_->orphans.push_back(std::move(impl_->retired.back()));
    impl_->retired.pop_back();
  }
}

bool reactor::is_registered(native_handle handle) const {
  std::lock_guard guard(impl_->lock);
  return impl_->table.count(handle) != 0;
}

std::size_t reactor::handler_count() const {
  std::lock_guard guard(impl_->lock);
  return impl_->table.size();
}

int reactor::perform_work(std::chrono::milliseconds timeout) {
  ACE_Time_Value wait;
  wait.msec(static_cast<long>(timeout.count() > 0 ? timeout.count() : 0));
  impl_->ace->owner(ACE_Thread::self());  // the select reactor dispatches only in its owner thread
  const int dispatched = impl_->ace->handle_events(wait);
  const int error = errno;
  impl_->free_retired();
  if (impl_->failure) {
    std::exception_ptr failure;
    std::swap(failure, impl_->failure);
    std::rethrow_exception(failure);
  }
  if (dispatched < 0) {
    if (error == EINTR || error == ETIME) return 0;
    throw_errno(SystemExceptionKind::INTERNAL, 0, CompletionStatus::no, "reactor event wait", error);
  }
  return dispatched;
}

bool reactor::work_pending(std::chrono::milliseconds timeout) {
  ACE_Time_Value wait;
  wait.msec(static_cast<long>(timeout.count() > 0 ? timeout.count() : 0));
  return impl_->ace->work_pending(wait) > 0;
}

void reactor::run() {
  // Each round is bounded so a lost wake-up costs at most this long.
  constexpr std::chrono::milliseconds round{1000};
  while (!impl_->stop_requested.exchange(false)) perform_work(round);
}

void reactor::stop() noexcept {
  impl_->stop_requested = true;
  impl_->ace->notify();
}

void reactor::notify() noexcept { impl_->ace->notify(); }

}  // namespace switchyard::transports
