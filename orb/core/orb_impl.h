// The ORB's insides: options, the server (listeners, connections, threads), the client
// connection cache, the adapters, initial references. Internal to orb/core; the public
// face is switchyard/orb.h.
#pragma once

#include <atomic>
#include <iosfwd>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "orb/adapter/adapter_registry.h"
#include "orb/core/connection_cache.h"
#include "orb/core/interception.h"
#include "orb/core/message_trace.h"
#include "orb/core/orb_options.h"
#include "orb/core/server.h"
#include "orb/ior/object_reference.h"
#include "switchyard/instrument.h"

namespace switchyard::core {

class reply_dispatcher;

// Whether the calling thread is running a servant (shutdown(true) from there is BAD_INV_ORDER).
bool server_request_in_upcall() noexcept;

class orb_impl final : public adapter::reference_factory, public std::enable_shared_from_this<orb_impl> {
 public:
  explicit orb_impl(orb_options options);
  ~orb_impl() override;

  const orb_options& options() const noexcept { return options_; }
  // -ORBTrace: what crosses the connections.
  message_trace& trace() noexcept { return trace_; }
  connection_cache& connections() noexcept { return connections_; }
  adapter::adapter_registry& adapters() noexcept { return *adapters_; }
  // The serving half: listeners, connections, concurrency, limits.
  core::server& serving() noexcept { return *server_; }

  // Portable interceptors (switchyard/interceptors.h): null when there are none, which is all a
  // call without them tests. Set once, inside orb_init, before the ORB is handed out.
  const client_interceptor_list* client_interceptors() const noexcept { return client_interceptors_.get(); }
  // Whether some ORB of the process has client interceptors (never cleared): what a call tests
  // first, one load of a global rather than the chain to its ORB's list.
  static bool client_interceptors_anywhere() noexcept {
    return client_interceptors_in_process.load(std::memory_order_relaxed);
  }
  const server_interceptor_list* server_interceptors() const noexcept { return server_interceptors_.get(); }
  void set_interceptors(client_interceptor_list client, server_interceptor_list server);

  // adapter::reference_factory: the reference to one of our objects. Opens the default endpoint
  // first if none is open yet.
  object_ref make_reference(std::string_view repository_id, std::string_view object_key) override;
  object_ref reference_from_ior(iop::ior reference);
  object_ref string_to_object(std::string_view text);
  object_ref resolve_initial_references(std::string_view name);
  void register_initial_reference(std::string_view name, const object_ref& reference);
  std::vector<std::string> list_initial_services() const;

  // Listening.
  void listen(std::string_view endpoint);
  std::vector<iop::endpoint> advertised_endpoints();

  // The event loop.
  void run();
  bool work_pending();
  void perform_work();
  void shutdown(bool wait_for_completion);
  bool is_shut_down() const noexcept { return shut_down_.load(std::memory_order_acquire); }
  // ORB::destroy: drops every activation and initial reference, which would otherwise keep the
  // ORB alive through the references they hold (servant -> reference -> ORB -> servant).
  void release_references() noexcept;

  // The reply thread of asynchronous calls (switchyard/ami.h), started by the first; stopped at
  // shutdown. BAD_INV_ORDER once the ORB is shut down.
  std::shared_ptr<reply_dispatcher> replies();

  void dump_instrumentation(std::ostream& out) const;
  // The profile summed over every server thread.
  instrument::probe_snapshot probe_snapshot() const { return probes_.snapshot(); }
  // Every server thread's probe table, and those collocated calls lease.
  instrument::probe_table_set& probes() noexcept { return probes_; }

 private:
  void ensure_listening();
  void stop_replies() noexcept;
  void close_everything() noexcept;
  // -ORBInstrument: the profile at shutdown, into -ORBInstrumentFile or stderr.
  void dump_profile_at_exit() noexcept;

  orb_options options_;
  message_trace trace_;
  connection_cache connections_;
  std::unique_ptr<adapter::adapter_registry> adapters_;
  static constinit std::atomic<bool> client_interceptors_in_process;
  std::unique_ptr<const client_interceptor_list> client_interceptors_;
  std::unique_ptr<const server_interceptor_list> server_interceptors_;
  instrument::probe_table_set probes_;
  std::atomic<bool> profile_dumped_{false};

  std::unique_ptr<core::server> server_;
  std::mutex listen_mutex_;  // one default endpoint, however many threads ask at once

  mutable std::mutex references_mutex_;
  std::map<std::string, object_ref, std::less<>> initial_references_;

  std::mutex replies_mutex_;
  std::shared_ptr<reply_dispatcher> replies_;
  bool replies_stopped_ = false;

  std::atomic<bool> shut_down_{false};
  std::atomic<int> running_{0};  // threads inside run()
  std::mutex run_mutex_;         // held by the thread that runs loop 0
};

}  // namespace switchyard::core
