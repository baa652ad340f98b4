// The listening side of a transport: one open endpoint that accepts connections. Internal header
// of transports/ for the core; no ACE. The listening socket is non-blocking, so that a reactor
// handler can drain it with try_accept() and never block on a connection that vanished.
#pragma once

#include <memory>
#include <string>

#include "transports/connection.h"
#include "transports/endpoint.h"

namespace switchyard::transports {

class acceptor {
 public:
  virtual ~acceptor();
  acceptor(const acceptor&) = delete;
  acceptor& operator=(const acceptor&) = delete;

  // Waits for the next connection (blocking mode, options applied). Throws COMM_FAILURE
  // (minor::recv_failed) if accepting fails or the acceptor is closed.
  virtual std::unique_ptr<connection> accept() = 0;
  // The next pending connection, or nullptr if none is waiting now.
  virtual std::unique_ptr<connection> try_accept() = 0;

  // The endpoint actually open: the real port when port 0 was asked for.
  virtual const endpoint& local_endpoint() const noexcept = 0;
  std::string endpoint_string() const { return local_endpoint().to_string(); }

  // The listening socket, for a reactor; invalid_handle once closed.
  virtual native_handle handle() const noexcept = 0;
  // Stops listening (idempotent); uiop also removes its socket file.
  virtual void close() noexcept = 0;

 protected:
  acceptor() = default;
};

}  // namespace switchyard::transports
