#include "orb/ior/iiop_profile.h"

#include "orb/ior/encapsulation.h"

namespace switchyard::iop {

iiop_profile decode_iiop_profile(std::span<const std::byte> body) {
  return detail::with_context("IIOP profile body", [&] {
    cdr::input_stream in = detail::open_encapsulation(body, "IIOP profile body");
    iiop_profile profile;
    profile.version = detail::read_profile_version(in, "IIOP profile");
    profile.host = in.read_string();
    profile.port = in.read_ushort();
    profile.object_key = detail::read_octet_sequence(in);
    if (profile.version.minor >= 1) profile.components = read_components(in);
    return profile;
  });
}

octets encode_iiop_profile(const iiop_profile& profile) {
  detail::check_components_allowed(profile.version, profile.components, "IIOP");
  cdr::output_stream out = detail::begin_encapsulation_body();
  out.write_octet(profile.version.major);
  out.write_octet(profile.version.minor);
  out.write_string(profile.host);
  out.write_ushort(profile.port);
  detail::write_octet_sequence(out, profile.object_key);
  if (profile.version.minor >= 1) write_components(out, profile.components);
  return detail::finish_encapsulation_body(out);
}

tagged_profile to_tagged_profile(const iiop_profile& profile) {
  return {tag_internet_iop, encode_iiop_profile(profile)};
}

component_list decode_multiple_components_profile(std::span<const std::byte> body) {
  return detail::with_context("TAG_MULTIPLE_COMPONENTS profile body", [&] {
    cdr::input_stream in = detail::open_encapsulation(body, "TAG_MULTIPLE_COMPONENTS profile body");
    // omniORB writes an empty list as the byte-order octet alone, without the count.
    if (in.at_end()) return component_list{};
    return read_components(in);
  });
}

octets encode_multiple_components_profile(const component_list& components) {
  cdr::output_stream out = detail::begin_encapsulation_body();
  write_components(out, components);
  return detail::finish_encapsulation_body(out);
}

component_list switchyard_components(giop_version version) {
  if (version.minor == 0) return {};
  return {make_orb_type_component(orb_type_switchyard), make_code_sets_component(switchyard_code_sets())};
}

iiop_profile make_iiop_profile(std::string host, std::uint16_t port, octets object_key, giop_version version) {
  return {version, std::move(host), port, std::move(object_key), switchyard_components(version)};
}

}  // namespace switchyard::iop
