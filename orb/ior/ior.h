// Interoperable object references (IOP::IOR): a repository type id and a sequence of tagged
// profiles, in CDR and as stringified "IOR:<hex>" text. Profiles stay raw octets here; decode the
// ones you understand with iiop_profile.h / uiop_profile.h. Internal header of orb/ior.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "orb/ior/iop_types.h"
#include "switchyard/cdr/byte_order.h"
#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"

namespace switchyard::iop {

struct ior {
  std::string type_id;  // "IDL:omg.org/CosNaming/NamingContext:1.0"; may be empty
  std::vector<tagged_profile> profiles;
  // The byte order of the stringified IOR this came from; to_ior_string writes the same one, so
  // a big-endian IOR from another ORB round-trips unchanged too.
  cdr::byte_order order = cdr::native_byte_order;

  // The nil reference: no type id and no profiles.
  bool is_nil() const noexcept { return type_id.empty() && profiles.empty(); }
  // Equal type ids and profiles (the byte order is not part of the value).
  friend bool operator==(const ior& a, const ior& b) { return a.type_id == b.type_id && a.profiles == b.profiles; }
};

// Parses "IOR:" + hex digits of a CDR encapsulation holding an IOR. The prefix and the hex digits
// may be in either case; whitespace around and inside the hex (a trailing newline, line breaks)
// is skipped. Octets after the profiles are ignored. Raises MARSHAL minor::bad_ior naming what is
// wrong: a missing prefix, a non-hex character and its position, an odd number of digits, a bad
// byte-order octet, a length beyond the data (and where).
ior parse_ior_string(std::string_view text);

// "IOR:" + lowercase hex, in `reference.order`.
std::string to_ior_string(const ior& reference);

// The encapsulation behind a stringified IOR (byte-order octet, then the IOR), and back.
ior decode_ior_encapsulation(std::span<const std::byte> bytes);
octets encode_ior_encapsulation(const ior& reference);

// An IOR inside a CDR stream (an object reference argument, a LOCATION_FORWARD reply body).
ior read_ior(cdr::input_stream& in);
void write_ior(cdr::output_stream& out, const ior& reference);

}  // namespace switchyard::iop
