// The shared body of every socket-based acceptor (iiop, uiop): a listening stream socket, kept
// non-blocking, drained by try_accept() and waited on by accept(); the failures of accept(2)
// sorted into the connection's problem (retried), nothing pending, and the acceptor's (thrown,
// with out-of-descriptors told apart so the server backs off). What differs by protocol is below:
// how the socket is opened (the constructors of iiop::acceptor, uiop::acceptor), what an
// accepted socket becomes (accepted()) and what closing leaves behind (on_close()). No ACE.
#pragma once

#include <memory>

#include "transports/acceptor.h"
#include "transports/socket_connection.h"
#include "transports/transport_options.h"

namespace switchyard::transports {

// What socket_acceptor's template does not need to see: accept4 (nothing pending: invalid_handle;
// throws COMM_FAILURE, minor::out_of_descriptors when the process or system ran out), a wait for
// the next connection, and close(2).
native_handle accept_now(native_handle listener, const endpoint& where);
void wait_for_connection(native_handle listener, const endpoint& where);
void close_handle(native_handle handle) noexcept;

template <class Connection>
class socket_acceptor : public acceptor {
 public:
  // Closes the socket; a derived acceptor whose on_close() matters calls close() in its own
  // destructor (here on_close() is no longer the derived one).
  ~socket_acceptor() override { close(); }

  // The concrete forms of accept()/try_accept(): code that knows its transport gets the final
  // connection type, whose calls need no indirect call.
  std::unique_ptr<Connection> accept_connection() {
    for (;;) {
      if (auto accepted = try_accept_connection()) return accepted;
      wait_for_connection(handle_, local_);
    }
  }
  std::unique_ptr<Connection> try_accept_connection() {
    const native_handle accepted = accept_now(handle_, local_);
    return accepted == invalid_handle ? nullptr : this->accepted(accepted);
  }

  std::unique_ptr<connection> accept() final { return accept_connection(); }
  std::unique_ptr<connection> try_accept() final { return try_accept_connection(); }
  const endpoint& local_endpoint() const noexcept final { return local_; }
  native_handle handle() const noexcept final { return handle_; }
  void close() noexcept final {
    if (handle_ == invalid_handle) return;
    close_handle(handle_);
    handle_ = invalid_handle;
    on_close();
  }

 protected:
  socket_acceptor(endpoint where, const transport_options& options) : local_(std::move(where)), options_(options) {}
  // Takes the listening socket (bound and listening): makes it non-blocking and applies the
  // buffer sizes accepted sockets inherit. Closes it and throws if that fails.
  void adopt_listener(native_handle listener) {
    handle_ = listener;
    try {
      apply_buffer_sizes(handle_, options_, "listening socket");
      set_handle_non_blocking(handle_, true, "listening socket");
    } catch (...) {
      close();
      throw;
    }
  }
  // An accepted socket, owned from here, as the protocol's connection.
  virtual std::unique_ptr<Connection> accepted(native_handle socket) = 0;
  // After the listening socket is closed (uiop removes its file).
  virtual void on_close() noexcept {}

  native_handle handle_ = invalid_handle;
  endpoint local_;
  transport_options options_;
};

}  // namespace switchyard::transports
