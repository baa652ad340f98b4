#include "orb/core/orb_impl.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <mutex>
#include <ostream>
#include <thread>
#include <vector>

#include "orb/core/object_state.h"
#include "orb/core/reply_dispatcher.h"
#include "orb/ior/ior.h"
#include "switchyard/config.h"
#include "switchyard/exception.h"

namespace switchyard::core {

namespace {

// The TLS contexts are made once, here, so that a bad certificate, key or CA file fails ORB_init.
orb_options with_tls(orb_options options) {
  bool listens_tls = false;
  for (const auto& endpoint : options.listen_endpoints) listens_tls |= endpoint.starts_with("ssliop://");
  if (options.tls_given || listens_tls)
    options.transport.tls = std::make_shared<const transports::tls_context>(options.tls);
  return options;
}

}  // namespace

orb_impl::orb_impl(orb_options options)
    : options_(with_tls(std::move(options))),
      trace_(options_.trace_level, options_.trace_file),
      connections_(options_.transport, options_.max_message_size, &trace_),
      adapters_(std::make_unique<adapter::adapter_registry>(*this, options_.servant_demux, options_.operation_demux)) {
  probes_.enable(options_.instrument);
  server_ = std::make_unique<core::server>(*this, probes_);
  if (options_.instrument) instrument::install_dump_signal(SIGUSR1);
  for (const auto& endpoint : options_.listen_endpoints) listen(endpoint);
}

orb_impl::~orb_impl() {
  shut_down_.store(true, std::memory_order_release);
  close_everything();
}

void orb_impl::listen(std::string_view endpoint) { server_->listen(endpoint); }

void orb_impl::ensure_listening() {
  // No -ORBListenEndpoints: every IPv4 interface, any free port, advertised by host name.
  std::lock_guard lock(listen_mutex_);
  if (!server_->is_listening()) listen("iiop://:0");
}

std::vector<iop::endpoint> orb_impl::advertised_endpoints() {
  ensure_listening();
  return server_->advertised_endpoints();
}

object_ref orb_impl::make_reference(std::string_view repository_id, std::string_view object_key) {
  auto endpoints = advertised_endpoints();
  iop::local_ior_options ior_options;
  ior_options.version = {1, options_.giop_minor};
  if (options_.tls.clients != transports::client_certificates::none)
    ior_options.tls_supports |= iop::association_trust_in_client;
  ior_options.tls_requires_client_certificate = options_.tls.clients == transports::client_certificates::require;
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
  {
    // One thread runs loop 0; another run() waits for the shutdown (in bounded rounds).
    std::unique_lock loop(run_mutex_, std::defer_lock);
    while (!is_shut_down()) {
      if (!loop.owns_lock() && !loop.try_lock()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        continue;
      }
      server_->run_once(std::chrono::milliseconds(1000));
      if (options_.instrument && instrument::take_dump_request()) instrument::dump(probes_.snapshot(), stderr);
    }
  }
  if (running_.fetch_sub(1) == 1 && !server_request_in_upcall()) close_everything();
}

bool orb_impl::work_pending() {
  if (is_shut_down())
    throw SystemException(SystemExceptionKind::BAD_INV_ORDER, minor::omg_minor(4), CompletionStatus::no,
                          "the ORB has shut down");
  return server_->work_pending();
}

void orb_impl::perform_work() {
  if (is_shut_down())
    throw SystemException(SystemExceptionKind::BAD_INV_ORDER, minor::omg_minor(4), CompletionStatus::no,
                          "the ORB has shut down");
  std::lock_guard loop(run_mutex_);
  server_->run_once(std::chrono::milliseconds(0));
}

void orb_impl::shutdown(bool wait_for_completion) {
  if (wait_for_completion && server_request_in_upcall())
    throw SystemException(SystemExceptionKind::BAD_INV_ORDER, minor::omg_minor(3), CompletionStatus::no,
                          "shutdown(true) from inside a request would wait for itself");
  shut_down_.store(true, std::memory_order_release);
  server_->wake();
  if (wait_for_completion) {
    // run() leaves within one loop round once woken, unless a servant it runs blocks: bounded by
    // -ORBShutdownTimeout, then the server stops without it (server::stop).
    const auto deadline = std::chrono::steady_clock::now() + options_.shutdown_timeout;
    while (running_.load() != 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    close_everything();
  } else if (running_.load() == 0 && !server_request_in_upcall()) {
    close_everything();
  }
}

std::shared_ptr<reply_dispatcher> orb_impl::replies() {
  std::lock_guard lock(replies_mutex_);
  if (replies_stopped_ || is_shut_down())
    throw SystemException(SystemExceptionKind::BAD_INV_ORDER, minor::omg_minor(4), CompletionStatus::no,
                          "the ORB has shut down");
  if (replies_ == nullptr) replies_ = reply_dispatcher::start();
  return replies_;
}

void orb_impl::stop_replies() noexcept {
  std::shared_ptr<reply_dispatcher> replies;
  {
    std::lock_guard lock(replies_mutex_);
    replies_stopped_ = true;
    replies = std::move(replies_);
  }
  if (replies != nullptr) replies->stop();
}

void orb_impl::close_everything() noexcept {
  dump_profile_at_exit();
  // Before the connections close: the calls still outstanding complete with BAD_INV_ORDER.
  stop_replies();
  if (!server_->stop(true, running_.load() != 0)) {
    // Servants left running stand on the server, the adapters and their servants: all are kept
    // for the life of the process (reachable, so not reported as leaks).
    static std::mutex kept_mutex;
    static auto* kept = new std::vector<std::shared_ptr<orb_impl>>();
    if (auto self = weak_from_this().lock()) {
      std::lock_guard lock(kept_mutex);
      try {
        kept->push_back(std::move(self));
      } catch (...) {
      }
    }
  }
  connections_.close_all();
}

void orb_impl::release_references() noexcept {
  if (server_->abandoned()) return;  // a servant left running may still use them
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
    auto format =
        options_.instrument_file.ends_with(".csv") ? instrument::dump_format::csv : instrument::dump_format::table;
    if (std::FILE* file = std::fopen(options_.instrument_file.c_str(), "w")) {
      instrument::dump(snapshot, file, format);
      std::fclose(file);
    } else {
      std::fprintf(stderr, "switchyard: cannot write the profile to %s\n", options_.instrument_file.c_str());
    }
  } catch (...) {
  }
}

constinit std::atomic<bool> orb_impl::client_interceptors_in_process{false};

void orb_impl::set_interceptors(client_interceptor_list client, server_interceptor_list server) {
  if (!client.empty()) client_interceptors_in_process.store(true, std::memory_order_relaxed);
  client_interceptors_ = client.empty() ? nullptr : std::make_unique<const client_interceptor_list>(std::move(client));
  server_interceptors_ = server.empty() ? nullptr : std::make_unique<const server_interceptor_list>(std::move(server));
}

}  // namespace switchyard::core
