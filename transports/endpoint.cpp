#include "transports/endpoint.h"

#include <charconv>

#include "transports/transport_errors.h"

namespace switchyard::transports {

std::string_view scheme(protocol p) noexcept {
  switch (p) {
    case protocol::iiop:
      return "iiop";
    case protocol::uiop:
      return "uiop";
    case protocol::ssliop:
      return "ssliop";
  }
  return "iiop";
}

std::string endpoint::to_string() const {
  std::string out(scheme(kind));
  out += "://";
  if (kind == protocol::uiop) {
    out += path;
    return out;
  }
  if (is_ipv6_literal) {
    out += '[';
    out += host;
    out += ']';
  } else {
    out += host;
  }
  out += ':';
  out += std::to_string(port);
  return out;
}

namespace {

bool is_name_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
}

bool is_ipv6_char(char c) noexcept {
  // Hex digits, ':' and '.' (IPv4 tail), '%' and name characters for a zone id ("fe80::1%lo").
  return is_name_char(c) || c == ':' || c == '%';
}

endpoint parse_iiop(std::string_view text, std::string_view rest) {
  endpoint result;
  result.kind = protocol::iiop;
  std::string_view port_text;
  if (!rest.empty() && rest.front() == '[') {
    const auto close = rest.find(']');
    if (close == std::string_view::npos) throw_bad_endpoint(text, "IPv6 address without ']'");
    const auto host = rest.substr(1, close - 1);
    if (host.empty()) throw_bad_endpoint(text, "empty IPv6 address");
    if (host.find(':') == std::string_view::npos) throw_bad_endpoint(text, "bracketed host is not an IPv6 address");
    for (char c : host)
      if (!is_ipv6_char(c)) throw_bad_endpoint(text, "bad character in IPv6 address");
    rest.remove_prefix(close + 1);
    if (rest.empty() || rest.front() != ':') throw_bad_endpoint(text, "missing ':port'");
    port_text = rest.substr(1);
    result.host = host;
    result.is_ipv6_literal = true;
  } else {
    const auto colon = rest.rfind(':');
    if (colon == std::string_view::npos) throw_bad_endpoint(text, "missing ':port'");
    const auto host = rest.substr(0, colon);
    if (host.find(':') != std::string_view::npos)
      throw_bad_endpoint(text, "IPv6 address must be in brackets, e.g. iiop://[::1]:2809");
    for (char c : host)
      if (!is_name_char(c)) throw_bad_endpoint(text, "bad character in host");
    if (host.size() > 253) throw_bad_endpoint(text, "host name longer than 253 characters");
    port_text = rest.substr(colon + 1);
    result.host = host;
  }
  if (port_text.empty()) throw_bad_endpoint(text, "empty port");
  if (port_text.size() > 5) throw_bad_endpoint(text, "port out of range 0..65535");
  unsigned value = 0;
  const auto [end, error] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), value);
  if (error != std::errc{} || end != port_text.data() + port_text.size())
    throw_bad_endpoint(text, "port is not a decimal number");
  if (value > 65535) throw_bad_endpoint(text, "port out of range 0..65535");
  result.port = static_cast<std::uint16_t>(value);
  return result;
}

endpoint parse_uiop(std::string_view text, std::string_view rest) {
  if (rest.empty()) throw_bad_endpoint(text, "empty socket path");
  if (rest.size() > max_uiop_path)
    throw_bad_endpoint(text, "socket path longer than " + std::to_string(max_uiop_path) + " bytes");
  if (rest.find('\0') != std::string_view::npos) throw_bad_endpoint(text, "NUL byte in socket path");
  endpoint result;
  result.kind = protocol::uiop;
  result.path = rest;
  return result;
}

}  // namespace

endpoint parse_endpoint(std::string_view text) {
  constexpr std::string_view iiop_prefix = "iiop://";
  constexpr std::string_view uiop_prefix = "uiop://";
  constexpr std::string_view ssliop_prefix = "ssliop://";
  if (text.starts_with(iiop_prefix)) return parse_iiop(text, text.substr(iiop_prefix.size()));
  if (text.starts_with(uiop_prefix)) return parse_uiop(text, text.substr(uiop_prefix.size()));
  if (text.starts_with(ssliop_prefix)) {
    endpoint tls = parse_iiop(text, text.substr(ssliop_prefix.size()));
    tls.kind = protocol::ssliop;
    return tls;
  }
  throw_bad_endpoint(text, "expected iiop://host:port, ssliop://host:port or uiop://path");
}

}  // namespace switchyard::transports
