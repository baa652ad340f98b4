// GIOP 1.0 (CORBA 3.0, 15.4): seven message types, no fragments, byte order as a boolean octet,
// requests addressed by object key only, request header with service contexts first. The layout
// it shares with 1.1 is in key_addressed_protocol.h.
#include "orb/giop/key_addressed_protocol.h"

namespace switchyard::giop {

namespace {

class protocol_1_0 final : public key_addressed_protocol {
 public:
  constexpr protocol_1_0() noexcept
      : key_addressed_protocol(version{1, 0}, static_cast<std::uint8_t>(message_type::message_error),
                               /*fragmentable_types=*/0, /*request_reserved_octets=*/0) {}

  message_mark begin_fragment(cdr::output_stream&, std::uint32_t) const override {
    throw SystemException(SystemExceptionKind::MARSHAL, minor::bad_message, CompletionStatus::no,
                          "GIOP 1.0 has no Fragment message");
  }
};

constexpr protocol_1_0 instance;

}  // namespace

const protocol& giop_1_0() noexcept { return instance; }

}  // namespace switchyard::giop
