// Dump on request: a signal only sets a flag; the server loop takes it between requests and dumps
// from there, where formatting and stdio are safe.
#include <switchyard/instrument.h>

#include <csignal>

namespace switchyard::instrument {
namespace {

std::atomic<bool> dump_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void on_dump_signal(int) { dump_requested.store(true, std::memory_order_relaxed); }

}  // namespace

void request_dump() noexcept { dump_requested.store(true, std::memory_order_relaxed); }

bool take_dump_request() noexcept {
  // Cheap when nothing was asked: a load, no locked instruction.
  if (!dump_requested.load(std::memory_order_relaxed)) return false;
  return dump_requested.exchange(false, std::memory_order_relaxed);
}

bool install_dump_signal(int signal_number) noexcept {
  struct sigaction action {};
  action.sa_handler = on_dump_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  return sigaction(signal_number, &action, nullptr) == 0;
}

}  // namespace switchyard::instrument
