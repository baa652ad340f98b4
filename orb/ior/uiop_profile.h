// UIOP profile bodies: GIOP over UNIX-domain sockets, with TAO's profile tag (tag_uiop,
// 0x54414f00) and TAO's body layout, which is IIOP's without the port:
//
//   octet major, minor; string rendezvous_point (the socket path); sequence<octet> object_key;
//   (1.1 and later) sequence<TaggedComponent> components
//
// Internal header of orb/ior.
#pragma once

#include <span>
#include <string>

#include "orb/ior/components.h"
#include "orb/ior/iop_types.h"

namespace switchyard::iop {

struct uiop_profile {
  giop_version version;
  std::string path;
  octets object_key;
  component_list components;  // always empty for 1.0
  friend bool operator==(const uiop_profile&, const uiop_profile&) = default;
};

uiop_profile decode_uiop_profile(std::span<const std::byte> body);
octets encode_uiop_profile(const uiop_profile& profile);
tagged_profile to_tagged_profile(const uiop_profile& profile);

// One of our own: version 1.2, our ORB type and code sets.
uiop_profile make_uiop_profile(std::string path, octets object_key, giop_version version = {});

}  // namespace switchyard::iop
