// The passive side of UIOP: a listening UNIX socket (ACE_LSOCK_Acceptor underneath,
// non-blocking). A stale socket file (nobody listening) is removed on open; a live one is an
// error. close() removes the file if it is still ours. No ACE here.
#pragma once

#include <sys/types.h>

#include <memory>

#include "transports/acceptor.h"
#include "transports/transport_options.h"
#include "transports/uiop/uiop_connection.h"

namespace switchyard::transports::uiop {

class acceptor final : public transports::acceptor {
 public:
  // Throws BAD_PARAM (minor::bad_endpoint) if the path is in use by a live server, is not a
  // socket, or cannot be bound.
  acceptor(const endpoint& where, const transport_options& options);
  ~acceptor() override;

  std::unique_ptr<uiop::connection> accept_connection();
  std::unique_ptr<uiop::connection> try_accept_connection();

  std::unique_ptr<transports::connection> accept() override { return accept_connection(); }
  std::unique_ptr<transports::connection> try_accept() override { return try_accept_connection(); }
  const endpoint& local_endpoint() const noexcept override { return local_; }
  native_handle handle() const noexcept override { return handle_; }
  void close() noexcept override;

 private:
  native_handle handle_ = invalid_handle;
  endpoint local_;
  transport_options options_;
  // The socket file we made, so that close() never removes someone else's file at that path.
  dev_t file_device_ = 0;
  ino_t file_inode_ = 0;
};

}  // namespace switchyard::transports::uiop
