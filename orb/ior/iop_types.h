// The plain values IORs are made of (module IOP of the CORBA specification): octet strings, GIOP
// versions, tagged profiles and tagged components. Internal header of orb/ior (included as
// "orb/ior/iop_types.h" by orb/ior, the ORB core and tests); no CDR here.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace switchyard::iop {

// An octet string: object keys, profile bodies, component data.
using octets = std::vector<std::byte>;

inline octets to_octets(std::string_view text) {
  const auto* p = reinterpret_cast<const std::byte*>(text.data());
  return octets(p, p + text.size());
}
inline std::string_view as_chars(std::span<const std::byte> bytes) noexcept {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// The IIOP (and GIOP) version a profile announces.
struct giop_version {
  std::uint8_t major = 1;
  std::uint8_t minor = 2;
  friend auto operator<=>(const giop_version&, const giop_version&) = default;
};

// One profile of an IOR as the wire carries it: a tag and an encapsulated body. Profiles we do not
// understand stay like this, so an IOR passes through us unchanged.
struct tagged_profile {
  std::uint32_t tag = 0;
  octets data;
  friend bool operator==(const tagged_profile&, const tagged_profile&) = default;
};

// One component of an IIOP 1.1+ profile or of a TAG_MULTIPLE_COMPONENTS profile.
struct tagged_component {
  std::uint32_t tag = 0;
  octets data;
  friend bool operator==(const tagged_component&, const tagged_component&) = default;
};

using component_list = std::vector<tagged_component>;

}  // namespace switchyard::iop
