// Where a server_request writes its reply: the server connection that read the request. One
// virtual call per reply. Internal to orb/core.
#pragma once

#include <cstdint>

#include "switchyard/cdr/output_stream.h"
#include "switchyard/server_request.h"

namespace switchyard::core {

class reply_sink {
 public:
  // Starts the reply to `request_id` with `status`, replacing anything begun before; returns the
  // stream positioned for the reply body.
  virtual cdr::output_stream& begin_reply(std::uint32_t request_id, reply_status status) = 0;

 protected:
  ~reply_sink() = default;
};

}  // namespace switchyard::core
