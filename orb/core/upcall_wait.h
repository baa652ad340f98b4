// What a thread keeps moving while a servant it runs waits for a reply (a call made from inside
// an upcall), so that nested calls never deadlock in any model (TAO's wait-on-reactor, carried
// over to every driver). The reply wait (client_connection::wait_for_reply) polls handle() beside
// the reply's connection and calls run() between looks at its reply:
//   - an event loop's thread (reactive, adaptive beyond its dedicated threads): runs the loop's
//     rounds nested (server_loop::nested_wait): other connections, the listeners, the tick;
//   - a dedicated thread (thread-per-connection, adaptive's first N): reads its own connection
//     and serves the requests a peer sends on it meanwhile (GIOP lets it send without waiting
//     for replies, and a nested call back may come on this very connection);
//   - a worker (-ORBThreads N): serves requests queued for the pool, so that workers all waiting
//     for each other's requests still get them served.
// Requests served so run nested in the waiting thread (one at a time, the model's contract);
// their replies go out through a reply stream of their own. Internal to orb/core.
#pragma once

#include <memory>
#include <optional>

#include "orb/core/server_loop.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/instrument.h"
#include "transports/connection.h"

namespace switchyard::core {

class server_connection;
struct upcall_frame;
class worker_pool;

class upcall_wait {
 public:
  // For the request `upcall` whose servant this thread runs (current_upcall).
  explicit upcall_wait(upcall_frame& upcall);
  ~upcall_wait();
  upcall_wait(const upcall_wait&) = delete;
  upcall_wait& operator=(const upcall_wait&) = delete;

  // A descriptor to poll beside the reply's: readable when run() has work; -1 when there is
  // none (a worker's queue): poll a few milliseconds, then call run() anyway.
  transports::native_handle handle() const noexcept { return handle_; }
  // Serves what is ready; `ready`: handle() polled readable. Never throws: a connection that
  // fails here is shut down, and its driver ends it once the upcall has returned.
  void run(bool ready) noexcept;

 private:
  std::shared_ptr<server_connection> upcall_;
  server_loop* loop_ = nullptr;
  std::optional<server_loop::nested_wait> loop_wait_;
  worker_pool* pool_ = nullptr;
  instrument::probe_table* probes_ = nullptr;  // a worker's: leased here
  cdr::output_stream replies_;
  transports::native_handle handle_ = -1;
};

}  // namespace switchyard::core
