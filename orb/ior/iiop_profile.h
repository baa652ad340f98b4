// IIOP profile bodies (TAG_INTERNET_IOP, IIOP::ProfileBody_1_0 and _1_1 / 1.2) and the
// TAG_MULTIPLE_COMPONENTS profile. Internal header of orb/ior.
//
//   1.0: octet major, minor; string host; ushort port; sequence<octet> object_key
//   1.1, 1.2: the same, then sequence<TaggedComponent> components
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "orb/ior/components.h"
#include "orb/ior/iop_types.h"

namespace switchyard::iop {

struct iiop_profile {
  giop_version version;
  std::string host;  // a name, dotted IPv4, or an IPv6 address without brackets
  std::uint16_t port = 0;
  octets object_key;
  component_list components;  // always empty for IIOP 1.0

  std::optional<std::uint32_t> orb_type() const { return orb_type_of(components); }
  std::optional<code_set_info> code_sets() const { return code_sets_of(components); }
  std::vector<alternate_address> alternate_addresses() const { return alternate_addresses_of(components); }
  friend bool operator==(const iiop_profile&, const iiop_profile&) = default;
};

// Decodes the body of a TAG_INTERNET_IOP profile. Raises MARSHAL minor::bad_ior naming what is
// wrong (a major version other than 1, a truncated field, a length beyond the data). Octets after
// the fields are ignored, as later minor versions may add fields.
iiop_profile decode_iiop_profile(std::span<const std::byte> body);
// Encodes a profile body in our byte order. An IIOP 1.0 profile with components raises BAD_PARAM.
octets encode_iiop_profile(const iiop_profile& profile);
tagged_profile to_tagged_profile(const iiop_profile& profile);

// The body of a TAG_MULTIPLE_COMPONENTS profile: an encapsulated sequence<TaggedComponent>.
component_list decode_multiple_components_profile(std::span<const std::byte> body);
octets encode_multiple_components_profile(const component_list& components);

// What we put in a profile for one of our own objects: version 1.2 (components only from 1.1),
// TAG_ORB_TYPE with our ORB type and TAG_CODE_SETS with switchyard_code_sets().
component_list switchyard_components(giop_version version = {});
iiop_profile make_iiop_profile(std::string host, std::uint16_t port, octets object_key, giop_version version = {});

}  // namespace switchyard::iop
