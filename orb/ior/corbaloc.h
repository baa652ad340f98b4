// corbaloc: URLs (CORBA 3.0, 13.6.10): parsed into addresses and an object key, and written back.
//
//   corbaloc:iiop:1.2@host:2809,iiop:[::1]:2810/Key%20With%20Escapes
//   corbaloc::host/Key              (empty protocol = iiop; no port = 2809; no version = 1.0)
//   corbaloc:ssliop:host:2810/Key   (IIOP over TLS)
//   corbaloc:rir:/NameService       (resolve_initial_references; an empty name = NameService)
//
// Internal header of orb/ior.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "orb/ior/iop_types.h"

namespace switchyard::iop {

inline constexpr std::uint16_t default_corbaloc_port = 2809;
inline constexpr std::string_view default_rir_name = "NameService";

// One iiop (or ssliop) address of a corbaloc URL.
struct corbaloc_address {
  std::optional<giop_version> version;  // absent: not given (the specification's default is 1.0)
  std::string host;                     // a name, dotted IPv4, or IPv6 without its brackets
  std::uint16_t port = default_corbaloc_port;
  bool tls = false;  // ssliop: (IIOP over TLS, as omniORB and TAO write it)
  friend bool operator==(const corbaloc_address&, const corbaloc_address&) = default;
};

struct corbaloc {
  // corbaloc:rir:/Name: the ORB core resolves `object_key` (the name) through
  // resolve_initial_references; `addresses` is empty.
  bool is_rir = false;
  std::vector<corbaloc_address> addresses;
  octets object_key;  // decoded from its %-escapes

  std::string rir_name() const { return std::string(as_chars(object_key)); }
  friend bool operator==(const corbaloc&, const corbaloc&) = default;
};

// Parses a corbaloc URL. Scheme and protocol names are case-insensitive; surrounding whitespace is
// skipped. Raises BAD_PARAM minor::bad_url naming what is wrong: unknown protocol, bad version,
// missing host, bad or out-of-range port, missing or empty key, bad %-escape, rir: mixed with
// other addresses.
corbaloc parse_corbaloc(std::string_view text);

// Writes a corbaloc URL: "corbaloc:iiop:1.2@host:2809/key" (the version only when given, the port
// always, IPv6 hosts in brackets, the key %-escaped), or "corbaloc:rir:/Name".
std::string to_corbaloc(const corbaloc& location);
// The common case: one iiop address.
std::string make_corbaloc(std::string_view host, std::uint16_t port, std::span<const std::byte> key,
                          std::optional<giop_version> version = std::nullopt);

// Object keys in URLs (RFC 2396): letters, digits and ;/:?@&=+$,-_.!~*'() stand for themselves,
// every other octet is %XX (uppercase hex).
std::string escape_key(std::span<const std::byte> key);
// The inverse. `%` must be followed by two hex digits; space, control characters and octets
// beyond ASCII must be escaped. Raises BAD_PARAM minor::bad_url naming the position.
octets unescape_key(std::string_view text);

}  // namespace switchyard::iop
