#include "orb/core/server.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "orb/core/loop_handover.h"
#include "orb/core/message_trace.h"
#include "orb/core/orb_impl.h"
#include "orb/core/server_connection.h"
#include "orb/core/server_loop.h"
#include "orb/core/worker_pool.h"
#include "switchyard/exception.h"
#include "transports/event_loop.h"
#include "transports/transport.h"

namespace switchyard::core {

namespace {

// How an open endpoint appears in IORs: a wildcard address becomes this host's name.
std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

iop::endpoint advertised_form(const transports::endpoint& open) {
  if (open.kind == transports::protocol::uiop) return iop::uiop_endpoint(open.path);
  std::string host = open.host;
  if (host.empty() || host == "0.0.0.0" || host == "::") host = host_name();
  if (open.kind == transports::protocol::ssliop) return iop::ssliop_endpoint(std::move(host), open.port);
  return iop::iiop_endpoint(std::move(host), open.port);
}

std::chrono::milliseconds tick_for(const server_limits& limits) {
  std::chrono::milliseconds shortest{4000};
  for (auto timeout : {limits.send_timeout, limits.idle_timeout, limits.message_timeout, limits.handshake_timeout})
    if (timeout.count() > 0) shortest = std::min(shortest, timeout);
  return std::clamp(shortest / 4, std::chrono::milliseconds(10), std::chrono::milliseconds(1000));
}

// Out of descriptors, accepting waits this long before it tries again (or until a connection
// of ours ends).
constexpr std::chrono::milliseconds descriptor_backoff{250};

std::size_t loop_count(const orb_options& options) {
  if (options.concurrency == concurrency_model::reactive && options.server_threads == 0) return 1;
  if (options.event_loops != 0) return options.event_loops;
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

// Accepts on one listening endpoint, in loop 0.
class server::listener final : public transports::io_handler {
 public:
  listener(server& owner, std::unique_ptr<transports::acceptor> acceptor)
      : owner_(owner), acceptor_(std::move(acceptor)) {}
  void on_io(transports::native_handle, unsigned) override { owner_.accept_from(*this); }
  transports::acceptor& acceptor() noexcept { return *acceptor_; }

 private:
  server& owner_;
  std::unique_ptr<transports::acceptor> acceptor_;
};

server::server(orb_impl& orb, instrument::probe_table_set& probes)
    : orb_(orb),
      options_(orb.options()),
      probes_(probes),
      budget_(options_.limits.max_buffered_bytes),
      tick_(tick_for(options_.limits)),
      dedicated_(*this) {
  const std::size_t loops = loop_count(options_);
  for (std::size_t i = 0; i < loops; ++i)
    loops_.push_back(std::make_unique<server_loop>(*this, i == 0 ? probes_.add() : probes_.lease()));
  loop_started_.assign(loops, false);
  loop_started_[0] = true;  // run by ORB::run
  const bool threads_serve = options_.server_threads == 0;
  // Served inline, the loops mark their servant code: a bounded stop may take a loop from a
  // servant that blocks, and the adaptive model's watchdog hands such a loop to a spare thread.
  if (threads_serve)
    for (auto& loop : loops_) loop->mark_servants();
  if (threads_serve && options_.concurrency == concurrency_model::adaptive) {
    crowded_above_ = 2 * static_cast<std::size_t>(options_.dedicated_threads);
    if (options_.handover_after.count() > 0) {
      std::vector<server_loop*> watched;
      for (auto& loop : loops_) watched.push_back(loop.get());
      handover_ = std::make_unique<loop_handover>(*this, std::move(watched), options_.handover_after);
    }
  }
}

server::~server() { stop(false); }

void server::listen(std::string_view endpoint) {
  auto acceptor = transports::open_acceptor(endpoint, options_.transport);
  std::lock_guard lock(listeners_mutex_);
  auto& added = listeners_.emplace_back(std::make_unique<listener>(*this, std::move(acceptor)));
  advertised_.push_back(advertised_form(added->acceptor().local_endpoint()));
  listener* raw = added.get();
  loops_[0]->events().post([this, raw] {
    const bool paused = paused_.load(std::memory_order_relaxed) != accept_pause::none;
    loops_[0]->events().add(raw->acceptor().handle(), *raw,
                            paused ? transports::io_events::none : transports::io_events::readable);
  });
}

bool server::is_listening() const {
  std::lock_guard lock(listeners_mutex_);
  return !listeners_.empty();
}

std::vector<iop::endpoint> server::advertised_endpoints() const {
  std::lock_guard lock(listeners_mutex_);
  return advertised_;
}

int server::run_once(std::chrono::milliseconds timeout) { return loops_[0]->run_once(timeout); }

bool server::work_pending() { return loops_[0]->events().work_pending(); }

void server::wake() noexcept { loops_[0]->events().wake(); }

void server::accept_from(listener& from) {
  // Drain what is pending: one readable event may stand for several connections.
  for (int i = 0; i < 64; ++i) {
    if (connections_.load(std::memory_order_relaxed) >= options_.limits.max_connections) {
      pause_accepting(accept_pause::connections,
                      std::to_string(options_.limits.max_connections) + " connections (-ORBMaxConnections)");
      return;
    }
    std::unique_ptr<transports::connection> accepted;
    try {
      accepted = from.acceptor().try_accept();
    } catch (const SystemException& e) {
      if (e.minor() == minor::out_of_descriptors) pause_accepting(accept_pause::descriptors, e.what());
      return;  // anything else concerns that one connection attempt
    }
    if (!accepted) return;
    told_descriptors_ = false;
    place(std::move(accepted));
  }
}

void server::place(std::unique_ptr<transports::connection> accepted) {
  std::shared_ptr<server_connection> connection;
  try {
    connection = std::make_shared<server_connection>(*this, std::move(accepted));
  } catch (const std::exception&) {
    return;  // no memory, or the budget is spent: the socket is closed by now; the peer sees EOF
  }
  connections_.fetch_add(1, std::memory_order_relaxed);
  if (orb_.trace().connections()) orb_.trace().connection("server", "accepted", connection->peer_address());
  if (stopped_.load(std::memory_order_acquire)) {
    connection->request_close(false);
    return;
  }
  const bool threads_serve = pool_ == nullptr && options_.server_threads == 0;
  bool dedicated = false;
  if (threads_serve && options_.concurrency == concurrency_model::thread_per_connection) dedicated = true;
  // Adaptive: a thread while few connections are open. Past twice as many as it has dedicated
  // threads, the dedicated ones move to the loops (crowded()), and a new one gets a thread again
  // only once the count has come back down: the gap keeps connections from moving to and fro.
  if (threads_serve && options_.concurrency == concurrency_model::adaptive)
    dedicated = dedicated_.busy() < options_.dedicated_threads && !crowded();
  // No thread to be had: an event loop serves it instead.
  if (dedicated && dedicated_.serve(connection)) return;
  next_loop().adopt(std::move(connection));
}

void server::move_to_loop(std::shared_ptr<server_connection> connection) {
  if (orb_.trace().connections())
    orb_.trace().connection("server", "moved to an event loop", connection->peer_address());
  next_loop().adopt(std::move(connection));
}

server_loop& server::next_loop() {
  std::lock_guard lock(loops_mutex_);
  if (options_.server_threads != 0 && pool_ == nullptr)
    pool_ = std::make_unique<worker_pool>(*this, options_.server_threads, options_.limits.max_queued_requests);
  const std::size_t index = next_loop_++ % loops_.size();
  if (!loop_started_[index]) {
    loops_[index]->start();
    loop_started_[index] = true;
  }
  if (handover_) handover_->watch();
  return *loops_[index];
}

void server::pause_accepting(accept_pause why, const std::string& detail) {
  if (paused_.load(std::memory_order_relaxed) == accept_pause::none) {
    std::lock_guard lock(listeners_mutex_);
    for (auto& l : listeners_) loops_[0]->events().modify(l->acceptor().handle(), transports::io_events::none);
  }
  paused_.store(why, std::memory_order_relaxed);
  bool& told = why == accept_pause::descriptors ? told_descriptors_ : told_connections_;
  if (why == accept_pause::descriptors) retry_accept_at_ = std::chrono::steady_clock::now() + descriptor_backoff;
  if (!told) {
    told = true;
    std::fprintf(stderr, "switchyard: not accepting connections for now: %s; %zu connections open\n", detail.c_str(),
                 connection_count());
  }
}

void server::resume_accepting() noexcept {
  if (paused_.exchange(accept_pause::none, std::memory_order_relaxed) == accept_pause::none) return;
  try {
    std::lock_guard lock(listeners_mutex_);
    for (auto& l : listeners_) {
      loops_[0]->events().modify(l->acceptor().handle(), transports::io_events::readable);
    }
  } catch (...) {
    // epoll refused the change (out of memory): the next tick tries again.
    paused_.store(accept_pause::descriptors, std::memory_order_relaxed);
  }
}

void server::connection_ended() noexcept {
  const std::size_t before = connections_.fetch_sub(1, std::memory_order_relaxed);
  (void)before;
  // A descriptor, and a place under -ORBMaxConnections, are free again: accepting may resume.
  if (paused_.load(std::memory_order_relaxed) == accept_pause::none || stopped_.load()) return;
  if (loops_[0]->events().in_loop_thread()) {
    resume_accepting();
    return;
  }
  try {
    loops_[0]->events().post([this] { resume_accepting(); });
  } catch (...) {
    // The next tick resumes it.
  }
}

void server::on_tick(server_loop& loop, std::chrono::steady_clock::time_point now) noexcept {
  if (&loop != loops_[0].get()) return;
  dedicated_.reap();
  const accept_pause paused = paused_.load(std::memory_order_relaxed);
  if (paused == accept_pause::descriptors && now >= retry_accept_at_) resume_accepting();
  if (paused == accept_pause::connections && connection_count() < options_.limits.max_connections) resume_accepting();
  if (paused == accept_pause::none) told_connections_ = false;
}

bool server::stop(bool graceful, bool loop_zero_busy) noexcept {
  std::lock_guard stopping(stop_mutex_);  // a second caller (shutdown beside run()) waits for the first
  if (stopped_.exchange(true)) return !abandoned_;
  const auto deadline = std::chrono::steady_clock::now() + options_.shutdown_timeout;
  // No more connections: the listeners go first, out of loop 0 if nobody runs it now; else in the
  // thread that does (a servant holds ORB::run's thread, or loop 0 is handed over), at its next
  // round, or in this thread's last round of it (server_loop::stop).
  auto close_listeners = [this] {
    std::lock_guard lock(listeners_mutex_);
    for (auto& l : listeners_) {
      loops_[0]->events().remove(l->acceptor().handle());
      l->acceptor().close();
    }
  };
  if (!loop_zero_busy && !loops_[0]->led_elsewhere()) {
    close_listeners();
  } else {
    try {
      loops_[0]->events().post(close_listeners);
    } catch (...) {
    }
  }
  if (handover_) handover_->stop_watching();
  // Requests in progress finish and are answered before their connections end.
  if (pool_) {
    for (auto& loop : loops_) {
      try {
        loop->pause_all();
      } catch (...) {
      }
    }
    try {
      if (!loop_zero_busy) loops_[0]->run_once(std::chrono::milliseconds(0));
    } catch (...) {
    }
    if (graceful)
      pool_->drain(std::max(std::chrono::milliseconds(0), std::chrono::duration_cast<std::chrono::milliseconds>(
                                                              deadline - std::chrono::steady_clock::now())));
  }
  bool all = dedicated_.stop(graceful, deadline);
  for (std::size_t i = 0; i < loops_.size(); ++i)
    all = loops_[i]->stop(graceful, deadline, i == 0 && loop_zero_busy) && all;
  if (handover_) all = handover_->stop(deadline) && all;
  if (pool_) all = pool_->stop(deadline) && all;
  if (!all) {
    abandoned_ = true;
    std::fprintf(stderr,
                 "switchyard: shutdown: servants still running after %lld ms (-ORBShutdownTimeout) were left "
                 "running; the ORB's memory is kept for them\n",
                 static_cast<long long>(options_.shutdown_timeout.count()));
  }
  std::lock_guard lock(listeners_mutex_);
  if (all) listeners_.clear();
  return all;
}

}  // namespace switchyard::core
