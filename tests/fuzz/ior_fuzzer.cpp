// Fuzzes orb/ior: the input as a stringified IOR (then every profile and component decoded), as
// a corbaloc URL, and as raw profile bodies. Whatever the bytes, parsing either succeeds or raises
// MARSHAL (IORs, profiles) or BAD_PARAM (URLs); anything parsed is written back and re-read equal.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "orb/ior/corbaloc.h"
#include "orb/ior/iiop_profile.h"
#include "orb/ior/object_reference.h"
#include "orb/ior/uiop_profile.h"
#include "switchyard/exception.h"

using namespace switchyard;
using namespace switchyard::iop;

namespace {

void check_kind(const SystemException& e) {
  if (e.kind() != SystemExceptionKind::MARSHAL && e.kind() != SystemExceptionKind::BAD_PARAM) __builtin_trap();
}

void decode_components(const component_list& components) {
  for (const auto& c : components) {
    try {
      switch (c.tag) {
        case tag_orb_type:
          decode_orb_type(c);
          break;
        case tag_code_sets:
          decode_code_sets(c);
          break;
        case tag_alternate_iiop_address:
          decode_alternate_address(c);
          break;
        case tag_omniorb_unix_trans:
          decode_omniorb_unix_address(c);
          break;
        default:
          break;
      }
    } catch (const SystemException& e) {
      check_kind(e);
    }
  }
}

void decode_profile(const tagged_profile& profile) {
  try {
    if (profile.tag == tag_internet_iop) {
      iiop_profile p = decode_iiop_profile(profile.data);
      decode_components(p.components);
      if (decode_iiop_profile(encode_iiop_profile(p)) != p) __builtin_trap();
    } else if (profile.tag == tag_uiop) {
      uiop_profile p = decode_uiop_profile(profile.data);
      decode_components(p.components);
      if (decode_uiop_profile(encode_uiop_profile(p)) != p) __builtin_trap();
    } else if (profile.tag == tag_multiple_components) {
      decode_components(decode_multiple_components_profile(profile.data));
    }
  } catch (const SystemException& e) {
    check_kind(e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);

  // A stringified IOR (or a corbaloc URL) through string_to_object's parser.
  try {
    object_string parsed = parse_object_string(text);
    const ior& reference = parsed.reference;
    if (parse_ior_string(to_ior_string(reference)) != reference) __builtin_trap();
    for (const auto& profile : reference.profiles) decode_profile(profile);
    try {
      targets_of(reference);
    } catch (const SystemException& e) {
      check_kind(e);
    }
  } catch (const SystemException& e) {
    check_kind(e);
  }

  // A corbaloc URL; what parses is written and parsed back equal.
  try {
    corbaloc location = parse_corbaloc(text);
    if (parse_corbaloc(to_corbaloc(location)) != location) __builtin_trap();
  } catch (const SystemException& e) {
    check_kind(e);
  }

  // The raw bytes as an IOR encapsulation and as profile bodies of each kind.
  try {
    decode_ior_encapsulation(bytes);
  } catch (const SystemException& e) {
    check_kind(e);
  }
  octets body(bytes.begin(), bytes.end());
  decode_profile({tag_internet_iop, body});
  decode_profile({tag_uiop, body});
  decode_profile({tag_multiple_components, body});
  return 0;
}
