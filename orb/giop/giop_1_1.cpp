// GIOP 1.1 (CORBA 3.0, 15.4): 1.0 plus the Fragment message (Request and Reply may be fragmented;
// a Fragment continues the one message in progress), a flags octet, and 3 reserved octets in
// the request header after response_expected. Targets are still object keys. The layout it
// shares with 1.0 is in key_addressed_protocol.h.
#include "orb/giop/key_addressed_protocol.h"

namespace switchyard::giop {

namespace {

constexpr std::uint8_t bit(message_type type) { return std::uint8_t(1u << static_cast<unsigned>(type)); }

class protocol_1_1 final : public key_addressed_protocol {
 public:
  constexpr protocol_1_1() noexcept
      : key_addressed_protocol(version{1, 1}, static_cast<std::uint8_t>(message_type::fragment),
                               bit(message_type::request) | bit(message_type::reply) | bit(message_type::fragment),
                               /*request_reserved_octets=*/3) {}

  // 1.1's Fragment has no header of its own: it continues the message in progress.
  message_mark begin_fragment(cdr::output_stream& out, std::uint32_t) const override {
    return begin_message(out, message_type::fragment);
  }
};

constexpr protocol_1_1 instance;

}  // namespace

const protocol& giop_1_1() noexcept { return instance; }

}  // namespace switchyard::giop
