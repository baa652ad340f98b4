// The ORB's insides: options, reactor, listeners, server connections, the client connection
// cache, the adapters, initial references, and the worker pool. Internal to orb/core; the public
// face is switchyard/orb.h.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <iosfwd>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "orb/adapter/adapter_registry.h"
#include "orb/core/connection_cache.h"
#include "orb/core/orb_options.h"
#include "orb/core/server_connection.h"
#include "orb/ior/object_reference.h"
#include "transports/acceptor.h"
#include "switchyard/instrument.h"
#include "transports/reactor.h"

namespace switchyard::core {

// Whether the calling thread is running a servant (shutdown(true) from there is BAD_INV_ORDER).
bool server_request_in_upcall() noexcept;

class orb_impl final : public adapter::reference_factory,
                       public std::enable_shared_from_this<orb_impl> {
 public:
  explicit orb_impl(orb_options options);
  ~orb_impl() override;

  const orb_options& options() const noexcept { return options_; }
  connection_cache& connections() noexcept { return connections_; }
  adapter::adapter_registry& adapters() noexcept { return *adapters_; }
  transports::reactor& reactor() noexcept { return reactor_; }

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
  void accept_connections(transports::acceptor& acceptor);

  // The event loop.
  void run();
  bool work_pending();
  void perform_work();
  void shutdown(bool wait_for_completion);
  bool is_shut_down() const noexcept { return shut_down_.load(std::memory_order_acquire); }
  // ORB::destroy: drops every activation and initial reference, which would otherwise keep the
  // ORB alive through the references they hold (servant -> reference -> ORB -> servant).
  void release_references() noexcept;

  void dump_instrumentation(std::ostream& out) const;
  // The probe table of the thread that runs the reactor, and the labels of the strategies.
  instrument::probe_table& reactor_probes() noexcept { return *reactor_probes_; }
  instrument::probe_snapshot probe_snapshot() const { return probes_.snapshot(); }
  instrument::strategy servant_demux_label() const noexcept { return servant_demux_label_; }
  instrument::strategy operation_demux_label() const noexcept { return operation_demux_label_; }

  // Thread-pool mode: queues a copy of `message` for a worker; false in reactive mode.
  bool hand_to_workers(const std::shared_ptr<server_connection>& connection,
                       const giop::message_view& message);

 private:
  class listener;
  struct work_item {
    std::shared_ptr<server_connection> connection;
    std::vector<std::byte> bytes;
  };

  void ensure_listening();
  void forget_closed_connections();
  void close_everything() noexcept;
  void worker_loop();
  // -ORBInstrument: the profile at shutdown, into -ORBInstrumentFile or stderr.
  void dump_profile_at_exit() noexcept;

  orb_options options_;
  connection_cache connections_;
  transports::reactor reactor_;
  std::unique_ptr<adapter::adapter_registry> adapters_;
  instrument::probe_table_set probes_;
  instrument::probe_table* reactor_probes_;
  instrument::strategy servant_demux_label_;
  instrument::strategy operation_demux_label_;
  std::atomic<bool> profile_dumped_{false};

  std::mutex server_mutex_;  // guards listeners_, server_connections_, advertised_
  std::vector<std::unique_ptr<listener>> listeners_;
  std::map<transports::native_handle, std::shared_ptr<server_connection>> server_connections_;
  // Thread-per-connection: each connection's thread, joined once the connection has closed.
  std::vector<std::pair<std::shared_ptr<server_connection>, std::thread>> connection_threads_;
  std::vector<iop::endpoint> advertised_;

  mutable std::mutex references_mutex_;
  std::map<std::string, object_ref, std::less<>> initial_references_;

  std::atomic<bool> shut_down_{false};
  std::atomic<int> running_{0};  // threads inside run()

  std::mutex work_mutex_;
  std::condition_variable work_ready_;
  std::deque<work_item> work_;
  std::vector<std::vector<std::byte>> spare_buffers_;
  std::vector<std::thread> workers_;
  bool workers_stop_ = false;
};

}  // namespace switchyard::core
