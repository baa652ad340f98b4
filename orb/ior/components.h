// Tagged components: the sequence<TaggedComponent> of IIOP 1.1+ profiles, and the typed
// components we understand (TAG_ORB_TYPE, TAG_CODE_SETS, TAG_ALTERNATE_IIOP_ADDRESS,
// omniORB's TAG_OMNIORB_UNIX_TRANS). Every other component stays raw. Internal header of orb/ior.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "orb/ior/iop_types.h"
#include "orb/ior/tags.h"
#include "switchyard/cdr/input_stream.h"
#include "switchyard/cdr/output_stream.h"

namespace switchyard::iop {

// sequence<TaggedComponent> in a CDR stream (inside a profile body).
component_list read_components(cdr::input_stream& in);
void write_components(cdr::output_stream& out, const component_list& components);

// The first component with `tag`, or nullptr.
const tagged_component* find_component(const component_list& components, std::uint32_t tag) noexcept;

// CONV_FRAME::CodeSetComponent and CodeSetComponentInfo.
struct code_set_component {
  std::uint32_t native_code_set = 0;
  std::vector<std::uint32_t> conversion_code_sets;
  friend bool operator==(const code_set_component&, const code_set_component&) = default;
};
struct code_set_info {
  code_set_component for_char;
  code_set_component for_wchar;
  friend bool operator==(const code_set_info&, const code_set_info&) = default;
};

// What we advertise, as omniORB does: char ISO-8859-1 native with UTF-8 conversion, wchar UTF-16
// native with UTF-16 conversion.
code_set_info switchyard_code_sets();

// TAG_ALTERNATE_IIOP_ADDRESS: another host and port for the same profile.
struct alternate_address {
  std::string host;
  std::uint16_t port = 0;
  friend bool operator==(const alternate_address&, const alternate_address&) = default;
};

// TAG_OMNIORB_UNIX_TRANS: a UNIX-domain socket on `host`.
struct omniorb_unix_address {
  std::string host;
  std::string path;
  friend bool operator==(const omniorb_unix_address&, const omniorb_unix_address&) = default;
};

// TAG_SSL_SEC_TRANS (SSLIOP::SSL): the TLS port of the profile's host, and what the target
// supports and requires (Security::AssociationOptions bits). omniORB 4.2 and JacORB write it;
// a profile that offers only TLS has port 0 itself.
struct ssl_transport {
  std::uint16_t target_supports = 0;
  std::uint16_t target_requires = 0;
  std::uint16_t port = 0;
  friend bool operator==(const ssl_transport&, const ssl_transport&) = default;
};
// Security::AssociationOptions bits used in it.
inline constexpr std::uint16_t association_integrity = 0x02;
inline constexpr std::uint16_t association_confidentiality = 0x04;
inline constexpr std::uint16_t association_trust_in_target = 0x20;
inline constexpr std::uint16_t association_trust_in_client = 0x40;

// Builders: each component's data is an encapsulation in our byte order.
tagged_component make_orb_type_component(std::uint32_t orb_type);
tagged_component make_code_sets_component(const code_set_info& info);
tagged_component make_alternate_address_component(const alternate_address& address);
tagged_component make_ssl_transport_component(const ssl_transport& ssl);

// Decoders: raise MARSHAL minor::bad_ior naming the component when its data is malformed.
// Trailing octets after the fields are ignored (later versions may add fields).
std::uint32_t decode_orb_type(const tagged_component& component);
code_set_info decode_code_sets(const tagged_component& component);
alternate_address decode_alternate_address(const tagged_component& component);
ssl_transport decode_ssl_transport(const tagged_component& component);
omniorb_unix_address decode_omniorb_unix_address(const tagged_component& component);

// Typed views of a component list: the first TAG_ORB_TYPE / TAG_CODE_SETS if any, and every
// TAG_ALTERNATE_IIOP_ADDRESS in order.
std::optional<std::uint32_t> orb_type_of(const component_list& components);
std::optional<code_set_info> code_sets_of(const component_list& components);
std::vector<alternate_address> alternate_addresses_of(const component_list& components);

}  // namespace switchyard::iop
