// Serving one GIOP Request that is already in memory: decode its header, find the servant and the
// skeleton through the adapters, run the skeleton, marshal the reply. The one copy of the
// server's dispatch: a server connection calls it for every Request it reads and then sends the
// reply; a collocated call (orb/core/collocation.h) calls it with the request its stub marshaled
// and reads the reply in place. Internal to orb/core.
#pragma once

#include <span>
#include <string_view>

#include "orb/giop/message_header.h"
#include "orb/giop/protocol.h"
#include "orb/giop/target_address.h"
#include "orb/ior/iop_types.h"
#include "switchyard/cdr/output_stream.h"
#include "switchyard/instrument.h"

namespace switchyard::transports {
class connection;
}

namespace switchyard::core {

class orb_impl;

// Where the reply to a one-way request with SyncScope WITH_SERVER goes as soon as its target is
// found, before the upcall: the connection it came on. A collocated call has none, and is
// answered after the upcall (as WITH_TARGET).
class early_reply_channel {
 public:
  virtual void send_early(std::span<const std::byte> reply) = 0;

 protected:
  ~early_reply_channel() = default;
};

// The object key a request names, whatever its addressing: a view for KeyAddr (the common
// case); for ProfileAddr and ReferenceAddr the key is copied out of the profile into `storage`.
std::string_view object_key_of(const giop::target_address& target, std::uint8_t minor, iop::octets& storage);

// Serves the Request `message` (spoken in `protocol`) for `orb`'s adapters. Marks parse,
// servant_demux, operation_demux and marshal on `timer` (the skeleton marks demarshal and upcall).
// Returns the whole reply message, written into `out` (reset first), or an empty span when the
// request expects none. What the servant raises becomes the reply (a system exception, UNKNOWN,
// LOCATION_FORWARD); a request header that does not decode raises MARSHAL, since there is no
// request id to answer it with. `from` is the connection the request came on, nullptr for a
// collocated call: an adapter's access policy and current_caller() look at it. A WITH_SERVER
// request's reply goes to `early` (when there is one) before the upcall, and nothing is returned.
std::span<const std::byte> dispatch_request(orb_impl& orb, const giop::message_view& message,
                                            const giop::protocol& protocol, cdr::output_stream& out,
                                            instrument::phase_timer& timer, const transports::connection* from,
                                            early_reply_channel* early = nullptr);

}  // namespace switchyard::core
