// GIOP 1.2 TargetAddress (CORBA 3.0, 15.4.2.1): how a request names its target, by object key
// (KeyAddr), by one tagged profile (ProfileAddr) or by a whole IOR and the index of the profile
// chosen (ReferenceAddr). Profiles and IORs stay views of their CDR octets: this layer does not
// depend on orb/ior (both sit on orb/cdr only); the ior layer reads them through cdr_view::stream().
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"

namespace switchyard::giop {

// GIOP::AddressingDisposition, a short on the wire.
enum class addressing_disposition : std::int16_t { key_addr = 0, profile_addr = 1, reference_addr = 2 };

// CDR octets with what it takes to read them again: their byte order and how far their first
// octet lies from its alignment origin.
struct cdr_view {
  std::span<const std::byte> bytes;
  cdr::byte_order order = cdr::native_byte_order;
  std::size_t origin_offset = 0;

  cdr::input_stream stream(std::uint8_t giop_minor = 2) const noexcept {
    return cdr::input_stream(bytes, order, origin_offset, giop_minor);
  }
};

struct target_address {
  addressing_disposition disposition = addressing_disposition::key_addr;
  std::span<const std::byte> object_key;     // key_addr
  cdr_view profile;                          // profile_addr: IOP::TaggedProfile {tag, profile_data}
  std::uint32_t selected_profile_index = 0;  // reference_addr
  cdr_view ior;                              // reference_addr: IOP::IOR {type_id, profiles}

  static target_address by_key(std::span<const std::byte> key) noexcept {
    target_address address;
    address.object_key = key;
    return address;
  }
};

// Reads a TargetAddress in place; a discriminator other than 0, 1, 2 raises MARSHAL
// minor::bad_enum, lengths beyond the message MARSHAL as usual.
target_address read_target_address(cdr::input_stream& in);

// Writes a TargetAddress. Profiles and IORs are read from their views and written again field by
// field, so a view in either byte order or alignment comes out right.
void write_target_address(cdr::output_stream& out, const target_address& address);

// Skims an IOP::TaggedProfile or IOP::IOR: checks its lengths and moves past it.
void skip_tagged_profile(cdr::input_stream& in);
void skip_ior(cdr::input_stream& in);

}  // namespace switchyard::giop
