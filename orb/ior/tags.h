// Tag values of IORs: profile tags, component tags, code set ids and ORB types, with their names
// for messages. Internal header of orb/ior (included as "orb/ior/tags.h").
#pragma once

#include <cstdint>
#include <string>

namespace switchyard::iop {

// Profile tags (IOP::ProfileId).
inline constexpr std::uint32_t tag_internet_iop = 0;         // IIOP::ProfileBody
inline constexpr std::uint32_t tag_multiple_components = 1;  // sequence<TaggedComponent>
// TAO's profile tag for GIOP over UNIX-domain sockets, from the range 0x54414f00-0x54414f0f
// ("TAO\0".."TAO\x0f") that TAO registered with the OMG. We use TAO's value and TAO's body layout
// (see uiop_profile.h) rather than invent a tag of our own, so the two ORBs read each other's
// UIOP profiles.
inline constexpr std::uint32_t tag_uiop = 0x54414f00u;

// Component tags (IOP::ComponentId).
inline constexpr std::uint32_t tag_orb_type = 0;
inline constexpr std::uint32_t tag_code_sets = 1;
inline constexpr std::uint32_t tag_policies = 2;
inline constexpr std::uint32_t tag_alternate_iiop_address = 3;
inline constexpr std::uint32_t tag_ssl_sec_trans = 20;
inline constexpr std::uint32_t tag_csi_sec_mech_list = 33;
// omniORB's UNIX-domain endpoint inside an IIOP profile: encapsulated {string host; string path}.
inline constexpr std::uint32_t tag_omniorb_unix_trans = 0x41545402u;

// ORB types (the TAG_ORB_TYPE component).
inline constexpr std::uint32_t orb_type_omniorb = 0x41545400u;  // "ATT\0"
inline constexpr std::uint32_t orb_type_tao = 0x54414f00u;      // "TAO\0"
// Switchyard's: "SY\0\0", the same prefix as our vendor minor codeset (switchyard::minor). Not
// registered with the OMG; ORB types only let a peer recognise its own kind, nothing depends on it.
inline constexpr std::uint32_t orb_type_switchyard = 0x53590000u;

// Code set ids (OSF registry, as CONV_FRAME uses them).
inline constexpr std::uint32_t codeset_iso_8859_1 = 0x00010001u;
inline constexpr std::uint32_t codeset_utf_8 = 0x05010001u;
inline constexpr std::uint32_t codeset_ucs_2 = 0x00010100u;  // UCS-2 level 1
inline constexpr std::uint32_t codeset_utf_16 = 0x00010109u;

// "TAG_INTERNET_IOP", or "tag 0x12345678" for one we do not know.
std::string profile_tag_name(std::uint32_t tag);
std::string component_tag_name(std::uint32_t tag);
// "ISO-8859-1", "UTF-8", "UTF-16", or "0x00010020".
std::string codeset_name(std::uint32_t id);

}  // namespace switchyard::iop
