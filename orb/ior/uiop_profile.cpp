#include "orb/ior/uiop_profile.h"

#include "orb/ior/encapsulation.h"
#include "orb/ior/iiop_profile.h"

namespace switchyard::iop {

uiop_profile decode_uiop_profile(std::span<const std::byte> body) {
  return detail::with_context("UIOP profile body", [&] {
    cdr::input_stream in = detail::open_encapsulation(body, "UIOP profile body");
    uiop_profile profile;
    profile.version = detail::read_profile_version(in, "UIOP profile");
    profile.path = in.read_string();
    profile.object_key = detail::read_octet_sequence(in);
    if (profile.version.minor >= 1) profile.components = read_components(in);
    return profile;
  });
}

octets encode_uiop_profile(const uiop_profile& profile) {
  detail::check_components_allowed(profile.version, profile.components, "UIOP");
  cdr::output_stream out = detail::begin_encapsulation_body();
  out.write_octet(profile.version.major);
  out.write_octet(profile.version.minor);
  out.write_string(profile.path);
  detail::write_octet_sequence(out, profile.object_key);
  if (profile.version.minor >= 1) write_components(out, profile.components);
  return detail::finish_encapsulation_body(out);
}

tagged_profile to_tagged_profile(const uiop_profile& profile) { return {tag_uiop, encode_uiop_profile(profile)}; }

uiop_profile make_uiop_profile(std::string path, octets object_key, giop_version version) {
  return {version, std::move(path), std::move(object_key), switchyard_components(version)};
}

}  // namespace switchyard::iop
