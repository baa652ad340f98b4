// Endpoint strings: "iiop://host:port", "ssliop://host:port" and "uiop://path", parsed once into a small value type.
// Internal header of transports/ (included by the ORB core and tests); no ACE.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace switchyard::transports {

// ssliop: IIOP over TLS (host and port as iiop).
enum class protocol : std::uint8_t { iiop, uiop, ssliop };

std::string_view scheme(protocol p) noexcept;  // "iiop", "uiop", "ssliop"

// One parsed endpoint. For iiop: host is a name, dotted IPv4 or an IPv6 literal (stored without
// its brackets; is_ipv6_literal says it had them); an empty host means every IPv4 interface
// (listen only). Port 0 asks the acceptor for any free port. For uiop: path is the socket file.
struct endpoint {
  protocol kind = protocol::iiop;
  std::string host;
  std::uint16_t port = 0;
  bool is_ipv6_literal = false;
  std::string path;

  // The canonical string: "iiop://127.0.0.1:2809", "iiop://[::1]:2809", "uiop:///tmp/sock".
  std::string to_string() const;

  friend bool operator==(const endpoint&, const endpoint&) = default;
};

// Parses an endpoint string; throws SystemException BAD_PARAM (minor::bad_endpoint) naming the
// string and what is wrong with it.
endpoint parse_endpoint(std::string_view text);

// The longest uiop path (sun_path less its NUL).
inline constexpr std::size_t max_uiop_path = 107;

}  // namespace switchyard::transports
