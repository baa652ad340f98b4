// What the ORB core needs from IORs, in one place: make the IOR of a local object, find the
// endpoints and object key to invoke a parsed IOR at, compare endpoints for the connection cache,
// and turn "IOR:..." / "corbaloc:..." strings into references (string_to_object) and back
// (object_to_string). Internal header of orb/ior, for orb/core and tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "orb/ior/components.h"
#include "orb/ior/corbaloc.h"
#include "orb/ior/iop_types.h"
#include "orb/ior/ior.h"
#include "orb/ior/tags.h"

namespace switchyard::iop {

// ssliop: IIOP over TLS, from an IIOP profile's TAG_SSL_SEC_TRANS component.
enum class transport_kind : std::uint8_t { iiop, uiop, ssliop };

// Where a profile says to connect. The same fields as transports::endpoint (which orb/ior may not
// include): host and port for iiop (an IPv6 host without brackets), path for uiop.
struct endpoint {
  transport_kind kind = transport_kind::iiop;
  std::string host;
  std::uint16_t port = 0;
  std::string path;

  // "iiop://host:2809", "iiop://[::1]:2809", "ssliop://host:2810", "uiop:///tmp/sock": the syntax
  // transports::parse_endpoint reads.
  std::string to_string() const;

  // For the connection cache: same transport, same port or path, and host names equal ignoring
  // case (DNS names are case-insensitive). No name resolution: "localhost" != "127.0.0.1".
  friend bool operator==(const endpoint& a, const endpoint& b) noexcept;
};

// A hash consistent with operator== (host case folded), for unordered_map<endpoint, connection>.
struct endpoint_hash {
  std::size_t operator()(const endpoint& e) const noexcept;
};

inline endpoint iiop_endpoint(std::string host, std::uint16_t port) {
  return {transport_kind::iiop, std::move(host), port, {}};
}
inline endpoint uiop_endpoint(std::string path) { return {transport_kind::uiop, {}, 0, std::move(path)}; }
inline endpoint ssliop_endpoint(std::string host, std::uint16_t port) {
  return {transport_kind::ssliop, std::move(host), port, {}};
}

// One way to reach the object: connect to `where`, speak GIOP `version`, send `object_key`.
struct invocation_target {
  endpoint where;
  giop_version version;
  octets object_key;
  std::size_t profile_index = 0;  // which profile of the IOR it came from
  bool alternate = false;         // from a TAG_ALTERNATE_IIOP_ADDRESS component
  // A plain (iiop) target of an IOR that also offers TLS: a client configured for TLS skips it.
  bool tls_offered = false;
  friend bool operator==(const invocation_target&, const invocation_target&) = default;
};

// Every target of an IOR, in the order the IOR lists them: each IIOP profile's TLS address
// (TAG_SSL_SEC_TRANS: the profile's host at the component's port), its address (unless its port
// is 0: TLS only), then its alternate addresses; each UIOP profile's path. Profiles of other tags are skipped. A
// malformed IIOP or UIOP profile raises MARSHAL minor::bad_ior naming the profile.
std::vector<invocation_target> targets_of(const ior& reference);

// How make_local_ior builds profiles.
struct local_ior_options {
  giop_version version{1, 2};
  // What the TAG_SSL_SEC_TRANS components of ssliop endpoints say the server supports (and,
  // for a host offered only over TLS, requires).
  std::uint16_t tls_supports = association_integrity | association_confidentiality | association_trust_in_target;
  bool tls_requires_client_certificate = false;
  std::uint32_t orb_type = orb_type_switchyard;
  bool advertise_code_sets = true;
};

// The IOR of one of our objects, reachable at `endpoints` (at least one) with `object_key`.
// IIOP 1.2: one IIOP profile for the first iiop endpoint, the others as
// TAG_ALTERNATE_IIOP_ADDRESS components; TAG_ALTERNATE_IIOP_ADDRESS came with IIOP 1.2, so with
// 1.0 and 1.1 each iiop endpoint gets a profile of its own.
// Each uiop endpoint gets a UIOP profile. An ssliop endpoint becomes a TAG_SSL_SEC_TRANS
// component: in the profile of the first iiop endpoint when that has the same host (TLS and
// plain), else in an IIOP profile of its own with port 0 (TLS only), as omniORB writes them.
// Profiles follow the order of the endpoints.
// Components (1.1+): TAG_ORB_TYPE, TAG_CODE_SETS (switchyard_code_sets()).
ior make_local_ior(std::string_view type_id, std::span<const endpoint> endpoints, std::span<const std::byte> object_key,
                   const local_ior_options& options = {});

// An IOR that reaches an object named by a corbaloc URL (iiop addresses only): no type id, one
// IIOP profile per address, with the URL's version or `default_version`. Raises BAD_PARAM
// minor::bad_url for a rir: URL (the ORB core resolves those itself).
ior ior_from_corbaloc(const corbaloc& location, giop_version default_version = {1, 0});

// string_to_object's parsing: "IOR:..." gives the IOR; "corbaloc:iiop..." gives the IOR made by
// ior_from_corbaloc; "corbaloc:rir:/Name" gives `initial_reference` = Name for
// resolve_initial_references and a nil `reference`. Anything else raises BAD_PARAM
// minor::bad_url; malformed IORs MARSHAL minor::bad_ior, malformed URLs BAD_PARAM minor::bad_url.
struct object_string {
  ior reference;
  std::optional<std::string> initial_reference;
};
object_string parse_object_string(std::string_view text);

// object_to_string.
inline std::string object_to_string(const ior& reference) { return to_ior_string(reference); }

}  // namespace switchyard::iop
