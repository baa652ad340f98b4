// The passive side of UIOP: a listening UNIX socket, opened through ACE_LSOCK_Acceptor; accepting
// is socket_acceptor's. A stale socket file (nobody listening) is removed on open; a live one is
// an error. close() removes the file if it is still ours. No ACE here.
#pragma once

#include <sys/types.h>

#include "transports/socket_acceptor.h"
#include "transports/uiop/uiop_connection.h"

namespace switchyard::transports::uiop {

class acceptor final : public socket_acceptor<uiop::connection> {
 public:
  // Throws BAD_PARAM (minor::bad_endpoint) if the path is in use by a live server, is not a
  // socket, or cannot be bound.
  acceptor(const endpoint& where, const transport_options& options);
  ~acceptor() override { close(); }

 private:
  std::unique_ptr<uiop::connection> accepted(native_handle socket) override;
  void on_close() noexcept override;

  // The socket file we made, so that close() never removes someone else's file at that path.
  dev_t file_device_ = 0;
  ino_t file_inode_ = 0;
};

}  // namespace switchyard::transports::uiop
