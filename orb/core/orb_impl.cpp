#include "orb/core/orb_impl.h"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <ostream>

#include "orb/core/object_state.h"
#include "orb/ior/ior.h"
#include "switchyard/config.h"
#include "switchyard/exception.h"
#include "transports/endpoint.h"
#include "transports/transport.h"

namespace switchyard::core {

namespace {

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

// How a listening endpoint appears in IORs: a wildcard address becomes this host's name.
iop::endpoint advertised_form(const transports::endpoint& open) {
  if (open.kind == transports::protocol::uiop) return iop::uiop_endpoint(open.path);
  std::string host = open.host;
  if (host.empty() || host == "0.0.0.0" || host == "::") host = host_name();
  return iop::iiop_endpoint(std::move(host), open.port);
}

// The label of a strategy in the profile: the one compiled in, or the one the options chose.
instrument::strategy strategy_label(int compiled_code, demux_strategy chosen) {
  if (compiled_code != 0) return static_cast<instrument::strategy>(compiled_code);
  return static_cast<instrument::strategy>(static_cast<int>(chosen) + 1);
}

}  // namespace

// Accepts connections on one listening endpoint, in the reactor's thread.
class orb_impl::listener final : public transports::readable_handler {
 public:
  listener(orb_impl& orb, std::unique_ptr<transports::acceptor> acceptor)
      : orb_(orb), acceptor_(std::move(acceptor)) {}
  disposition on_readable(transports::native_handle) override {
    orb_.accept_connections(*acceptor_);
    return disposition::keep;
  }
  transports::acceptor& acceptor() noexcept { return *acceptor_; }

 private:
  orb_impl& orb_;
  std::unique_ptr<transports::acceptor> acceptor_;
};

orb_impl::orb_impl(orb_options options)
    : options_(std::move(options)),
      connections_(options_.transport, options_.max_message_size),
      reactor_(options_.reactor),
      adapters_(std::make_unique<adapter::adapter_registry>(*this, options_.servant_demux,
                                                            options_.operation_demux)),
      reactor_probes_(&probes_.add()),
      servant_demux_label_(strategy_label(SWITCHYARD_SERVANT_DEMUX, options_.servant_demux)),
      operation_demux_label_(strategy_label(SWITCHYARD_OPERATION_DEMUX, options_.operation_demux)) {
  probes_.enable(options_.instrument);
  if (options_.instrument) instrument::install_dump_signal(SIGUSR1);
  for (const auto& endpoint : options_.listen_endpoints) listen(endpoint);
  for (unsigned i = 0; i < options_.server_threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

orb_impl::~orb_impl() {
  shut_down_.store(true, std::memory_order_release);
  close_everything();
  std::lock_guard lock(server_mutex_);
  server_connections_.clear();
  listeners_.clear();
}

void orb_impl::listen(std::string_view endpoint) {
  auto acceptor = transports::open_acceptor(endpoint, options_.transport);
  auto handle = acceptor->handle();
  std::lock_guard lock(server_mutex_);
  listeners_.push_back(std::make_unique<listener>(*this, std::move(acceptor)));
  advertised_.push_back(advertised_form(listeners_.back()->acceptor().local_endpoint()));
  reactor_.add_readable(handle, *listeners_.back());
}

void orb_impl::ensure_listening() {
  {
    std::lock_guard lock(server_mutex_);
    if (!listeners_.empty()) return;
  }
  // No -ORBListenEndpoints: every IPv4 interface, any free port, advertised by host name.
  listen("iiop://:0");
}

std::vector<iop::endpoint> orb_impl::advertised_endpoints() {
  ensure_listening();
  std::lock_guard lock(server_mutex_);
  return advertised_;
}

void orb_impl::accept_connections(transports::acceptor& acceptor) {
  // Drain what is pending: one readable event may stand for several connections.
  for (int i = 0; i < 64; ++i) {
    std::unique_ptr<transports::connection> accepted;
    try {
      accepted = acceptor.try_accept();
    } catch (const SystemException&) {
      return;
    }
    if (!accepted) return;
    auto connection = std::make_shared<server_connection>(*this, std::move(accepted));
    std::lock_guard lock(server_mutex_);
    if (shut_down_.load(std::memory_order_acquire)) return;
    if (options_.thread_per_connection && options_.server_threads == 0) {
      instrument::probe_table& probes = probes_.add();
      connection_threads_.emplace_back(connection, std::thread([connection, &probes] {
        connection->serve_blocking(probes);
      }));
      continue;
    }
    reactor_.add_readable(connection->handle(), *connection);
    server_connections_[connection->handle()] = std::move(connection);
  }
}

object_ref orb_impl::make_reference(std::string_view repository_id, std::string_view object_key) {
  auto endpoints = advertised_endpoints();
  iop::local_ior_options ior_options;
  ior_options.version = {1, options_.giop_minor};
  auto key = std::as_bytes(std::span(object_key.data(), object_key.size()));
  return reference_from_ior(iop::make_local_ior(repository_id, endpoints, key, ior_options));
}

object_ref orb_impl::reference_from_ior(iop::ior reference) {
  if (reference.is_nil()) return {};
  return object_ref(std::make_shared<object_state>(shared_from_this(), std::move(reference)));
}

object_ref orb_impl::string_to_object(std::string_view text) {
  auto parsed = iop::parse_object_string(text);
  if (parsed.initial_reference) return resolve_initial_references(*parsed.initial_reference);
  return reference_from_ior(std::move(parsed.reference));
}

object_ref orb_impl::resolve_initial_references(std::string_view name) {
  {
    std::lock_guard lock(references_mutex_);
    auto it = initial_references_.find(name);
    if (it != initial_references_.end()) return it->second;
  }
  for (const auto& [ref_name, url] : options_.initial_references) {
    if (ref_name != name) continue;
    // A rir: URL naming itself would loop for ever.
    if (url.starts_with("corbaloc:rir:"))
      throw SystemException(SystemExceptionKind::BAD_PARAM, minor::bad_option, CompletionStatus::no,
                            "-ORBInitRef " + ref_name + " may not be a corbaloc:rir: URL");
    return string_to_object(url);
  }
  if (!options_.default_initial_reference.empty()) {
    std::string url = options_.default_initial_reference;
    if (!url.ends_with('/')) url += '/';
    return string_to_object(url + std::string(name));
  }
  throw SystemException(SystemExceptionKind::BAD_PARAM, minor::bad_option, CompletionStatus::no,
                        "resolve_initial_references: no initial reference '" + std::string(name) +
                            "' (InvalidName): give one with -ORBInitRef " + std::string(name) + "=URL");
}

void orb_impl::register_initial_reference(std::string_view name, const object_ref& reference) {
  if (name.empty() || reference.is_nil())
    throw SystemException(SystemExceptionKind::BAD_PARAM, minor::omg_minor(24), CompletionStatus::no,
                          "register_initial_reference: empty name or nil reference");
  std::lock_guard lock(references_mutex_);
  initial_references_.insert_or_assign(std::string(name), reference);
}

std::vector<std::string> orb_impl::list_initial_services() const {
  std::vector<std::string> names;
  std::lock_guard lock(references_mutex_);
  for (const auto& [name, reference] : initial_references_) names.push_back(name);
  for (const auto& [name, url] : options_.initial_references) names.push_back(name);
  return names;
}

void orb_impl::run() {
  running_.fetch_add(1);
  while (!is_shut_down()) {
    reactor_.perform_work(std::chrono::milliseconds(1000));
    forget_closed_connections();
    if (options_.instrument && instrument::take_dump_request())
      instrument::dump(probes_.snapshot(), stderr);
  }
  if (running_.fetch_sub(1) == 1 && !server_request_in_upcall()) close_everything();
}

bool orb_impl::work_pending() {
  if (is_shut_down())
    throw SystemException(SystemExceptionKind::BAD_INV_ORDER, minor::omg_minor(4), CompletionStatus::no,
                          "the ORB has shut down");
  return reactor_.work_pending(std::chrono::milliseconds(0));
}

void orb_impl::perform_work() {
  if (is_shut_down())
    throw SystemException(SystemExceptionKind::BAD_INV_ORDER, minor::omg_minor(4), CompletionStatus::no,
                          "the ORB has shut down");
  reactor_.perform_work(std::chrono::milliseconds(0));
  forget_closed_connections();
}

void orb_impl::shutdown(bool wait_for_completion) {
  if (wait_for_completion && server_request_in_upcall())
    throw SystemException(SystemExceptionKind::BAD_INV_ORDER, minor::omg_minor(3), CompletionStatus::no,
                          "shutdown(true) from inside a request would wait for itself");
  shut_down_.store(true, std::memory_order_release);
  reactor_.notify();
  if (wait_for_completion) {
    // Bounded: run() leaves within one reactor round once notified.
    for (int i = 0; i < 10000 && running_.load() != 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    close_everything();
  } else if (running_.load() == 0 && !server_request_in_upcall()) {
    close_everything();
  }
}

void orb_impl::close_everything() noexcept {
  dump_profile_at_exit();
  std::vector<std::thread> workers;
  {
    std::lock_guard lock(work_mutex_);
    workers_stop_ = true;
    workers.swap(workers_);
  }
  work_ready_.notify_all();
  for (auto& worker : workers)
    if (worker.joinable() && worker.get_id() != std::this_thread::get_id()) worker.join();
    else if (worker.joinable()) worker.detach();

  std::lock_guard lock(server_mutex_);
  for (auto& l : listeners_) {
    reactor_.remove(l->acceptor().handle());
    l->acceptor().close();
  }
  for (auto& [handle, connection] : server_connections_) {
    reactor_.remove(handle);
    connection->close_gracefully();
  }
  for (auto& [connection, thread] : connection_threads_) {
    connection->say_goodbye();
    if (thread.joinable() && thread.get_id() != std::this_thread::get_id()) thread.join();
    else if (thread.joinable()) thread.detach();
  }
  connection_threads_.clear();
  connections_.close_all();
}

void orb_impl::release_references() noexcept {
  adapters_->deactivate_all();
  std::lock_guard lock(references_mutex_);
  initial_references_.clear();
}

void orb_impl::dump_instrumentation(std::ostream& out) const {
  if (!instrument::probes_compiled_in) {
    out << "# switchyard request-path profile: not compiled in (meson -Dinstrumentation=enabled)\n";
    return;
  }
  out << instrument::format_report(probes_.snapshot());
}

void orb_impl::dump_profile_at_exit() noexcept {
  if (!options_.instrument || profile_dumped_.exchange(true)) return;
  try {
    auto snapshot = probes_.snapshot();
    if (options_.instrument_file.empty()) {
      instrument::dump(snapshot, stderr);
      return;
    }
    auto format = options_.instrument_file.ends_with(".csv") ? instrument::dump_format::csv
                                                             : instrument::dump_format::table;
    if (std::FILE* file = std::fopen(options_.instrument_file.c_str(), "w")) {
      instrument::dump(snapshot, file, format);
      std::fclose(file);
    } else {
      std::fprintf(stderr, "switchyard: cannot write the profile to %s\n", options_.instrument_file.c_str());
    }
  } catch (...) {
  }
}

void orb_impl::forget_closed_connections() {
  std::lock_guard lock(server_mutex_);
  // A closed connection's thread has left serve_blocking (it closes the connection last).
  std::erase_if(connection_threads_, [](auto& entry) {
    if (entry.first->is_open()) return false;
    entry.second.join();
    return true;
  });
  for (auto it = server_connections_.begin(); it != server_connections_.end();) {
    if (it->second->is_open()) {
      ++it;
    } else {
      reactor_.remove(it->first);
      it = server_connections_.erase(it);
    }
  }
}

bool orb_impl::hand_to_workers(const std::shared_ptr<server_connection>& connection,
                               const giop::message_view& message) {
  if (options_.server_threads == 0) return false;
  std::lock_guard lock(work_mutex_);
  if (workers_stop_) return true;  // shutting down: drop it
  std::vector<std::byte> bytes;
  if (!spare_buffers_.empty()) {
    bytes = std::move(spare_buffers_.back());
    spare_buffers_.pop_back();
  }
  bytes.assign(message.bytes.begin(), message.bytes.end());
  work_.push_back({connection, std::move(bytes)});
  work_ready_.notify_one();
  return true;
}

void orb_impl::worker_loop() {
  cdr::output_stream out(4096);
  instrument::probe_table& probes = probes_.add();
  std::unique_lock lock(work_mutex_);
  for (;;) {
    work_ready_.wait(lock, [this] { return workers_stop_ || !work_.empty(); });
    if (workers_stop_) return;
    work_item item = std::move(work_.front());
    work_.pop_front();
    lock.unlock();
    try {
      auto message = giop::make_message_view(item.bytes, 0xffffffffu);
      instrument::phase_timer timer(probes);
      item.connection->serve(message, out, timer);
    } catch (...) {
      // serve() answers what it can; a connection that broke is closed by it.
    }
    item.connection.reset();
    lock.lock();
    if (spare_buffers_.size() < 64) spare_buffers_.push_back(std::move(item.bytes));
  }
}

}  // namespace switchyard::core
