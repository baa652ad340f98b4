#include "orb/ior/corbaloc.h"

#include <cstdio>

#include "switchyard/exception.h"

namespace switchyard::iop {

namespace {

constexpr std::string_view scheme = "corbaloc:";

[[noreturn]] void throw_bad_url(std::string_view url, const std::string& why) {
  throw SystemException(SystemExceptionKind::BAD_PARAM, minor::bad_url, CompletionStatus::no,
                        "corbaloc URL \"" + std::string(url) + "\": " + why);
}

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

char lower(char c) noexcept { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool equals_ignoring_case(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

bool is_name_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '-' || c == '.' || c == '_';
}

// RFC 2396 unreserved and reserved characters: they stand for themselves in a key.
bool is_key_char(char c) noexcept {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c)) return true;
  switch (c) {
    case ';':
    case '/':
    case ':':
    case '?':
    case '@':
    case '&':
    case '=':
    case '+':
    case '$':
    case ',':
    case '-':
    case '_':
    case '.':
    case '!':
    case '~':
    case '*':
    case '\'':
    case '(':
    case ')':
      return true;
    default:
      return false;
  }
}

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// A decimal number of at most `max_digits` digits, or -1.
long parse_decimal(std::string_view text, std::size_t max_digits) noexcept {
  if (text.empty() || text.size() > max_digits) return -1;
  long value = 0;
  for (char c : text) {
    if (!is_digit(c)) return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

giop_version parse_version(std::string_view url, std::string_view text) {
  const auto dot = text.find('.');
  long major = dot == std::string_view::npos ? -1 : parse_decimal(text.substr(0, dot), 3);
  long minor = dot == std::string_view::npos ? -1 : parse_decimal(text.substr(dot + 1), 3);
  if (major < 0 || minor < 0)
    throw_bad_url(url, "bad version " + quoted(text) + " (expected <major>.<minor>@, e.g. 1.2@)");
  if (major != 1 || minor > 2)
    throw_bad_url(url, "unsupported IIOP version " + std::string(text) + " (1.0, 1.1 or 1.2)");
  return {static_cast<std::uint8_t>(major), static_cast<std::uint8_t>(minor)};
}

std::uint16_t parse_port(std::string_view url, std::string_view text) {
  if (text.empty()) throw_bad_url(url, "empty port after ':'");
  for (char c : text)
    if (!is_digit(c)) throw_bad_url(url, "port " + quoted(text) + " is not a decimal number");
  long value = parse_decimal(text, 5);
  if (value < 0 || value > 65535) throw_bad_url(url, "port " + std::string(text) + " out of range (0 to 65535)");
  return static_cast<std::uint16_t>(value);
}

// [<major>.<minor>@]<host>[:<port>], the part after "iiop:" or ":".
corbaloc_address parse_iiop_address(std::string_view url, std::string_view text) {
  corbaloc_address address;
  if (const auto at = text.find('@'); at != std::string_view::npos) {
    address.version = parse_version(url, text.substr(0, at));
    text.remove_prefix(at + 1);
  }
  std::string_view port_text;
  bool has_port = false;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos) throw_bad_url(url, "IPv6 address without its closing ']'");
    std::string_view host = text.substr(1, close - 1);
    if (host.find(':') == std::string_view::npos)
      throw_bad_url(url, "bracketed host " + quoted(host) + " is not an IPv6 address");
    for (char c : host)
      if (hex_value(c) < 0 && c != ':' && c != '.' && c != '%' && !is_name_char(c))
        throw_bad_url(url, "bad character in IPv6 address " + quoted(host));
    address.host = host;
    std::string_view after = text.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':')
        throw_bad_url(url, "unexpected " + quoted(after) + " after IPv6 address (expected ':port')");
      has_port = true;
      port_text = after.substr(1);
    }
  } else {
    const auto colon = text.find(':');
    std::string_view host = text.substr(0, colon);
    if (colon != std::string_view::npos) {
      has_port = true;
      port_text = text.substr(colon + 1);
      if (port_text.find(':') != std::string_view::npos)
        throw_bad_url(url, "IPv6 address must be in brackets, e.g. corbaloc::[::1]:2809/key");
    }
    if (host.empty()) throw_bad_url(url, "missing host in iiop address");
    for (char c : host)
      if (!is_name_char(c)) throw_bad_url(url, "bad character in host " + quoted(host));
    address.host = host;
  }
  if (address.host.empty()) throw_bad_url(url, "missing host in iiop address");
  if (has_port) address.port = parse_port(url, port_text);
  return address;
}

octets unescape(std::string_view url, std::string_view text, std::size_t offset) {
  octets out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    auto u = static_cast<unsigned char>(c);
    if (c == '%') {
      int high = i + 1 < text.size() ? hex_value(text[i + 1]) : -1;
      int low = i + 2 < text.size() ? hex_value(text[i + 2]) : -1;
      if (high < 0 || low < 0)
        throw_bad_url(url, "bad escape " + quoted(text.substr(i, 3)) + " at position " + std::to_string(offset + i) +
                               " of the object key (expected % and two hex digits)");
      out.push_back(static_cast<std::byte>(high * 16 + low));
      i += 2;
    } else if (u <= 0x20 || u >= 0x7f) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "0x%02x", u);
      throw_bad_url(url, std::string("character ") + buffer + " at position " + std::to_string(offset + i) +
                             " of the object key must be %-escaped");
    } else {
      out.push_back(static_cast<std::byte>(u));
    }
  }
  return out;
}

}  // namespace

corbaloc parse_corbaloc(std::string_view url) {
  std::string_view text = url;
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  if (text.size() < scheme.size() || !equals_ignoring_case(text.substr(0, scheme.size()), scheme))
    throw_bad_url(url, "must start with 'corbaloc:'");
  std::size_t offset = scheme.size();
  std::string_view rest = text.substr(offset);
  const auto slash = rest.find('/');
  std::string_view address_list = rest.substr(0, slash);
  if (address_list.empty()) throw_bad_url(url, "no address (expected e.g. corbaloc::host:port/key)");

  corbaloc result;
  std::size_t rir_count = 0;
  std::size_t start = 0;
  while (start <= address_list.size()) {
    auto comma = address_list.find(',', start);
    if (comma == std::string_view::npos) comma = address_list.size();
    std::string_view address = address_list.substr(start, comma - start);
    if (address.empty()) throw_bad_url(url, "empty address in the address list");
    const auto colon = address.find(':');
    if (colon == std::string_view::npos)
      throw_bad_url(url, "address " + quoted(address) + " has no protocol (expected iiop:host, :host or rir:)");
    std::string_view protocol = address.substr(0, colon);
    std::string_view rest_of_address = address.substr(colon + 1);
    if (protocol.empty() || equals_ignoring_case(protocol, "iiop")) {
      result.addresses.push_back(parse_iiop_address(url, rest_of_address));
    } else if (equals_ignoring_case(protocol, "ssliop")) {
      result.addresses.push_back(parse_iiop_address(url, rest_of_address));
      result.addresses.back().tls = true;
    } else if (equals_ignoring_case(protocol, "rir")) {
      if (!rest_of_address.empty()) throw_bad_url(url, "rir: takes no address (expected corbaloc:rir:/Name)");
      ++rir_count;
    } else {
      throw_bad_url(url, "unknown protocol " + quoted(protocol) + " (expected iiop, ssliop or rir)");
    }
    start = comma + 1;
  }
  if (rir_count > 0 && (rir_count > 1 || !result.addresses.empty()))
    throw_bad_url(url, "rir: cannot be combined with other addresses");
  result.is_rir = rir_count == 1;

  std::size_t key_offset = static_cast<std::size_t>(text.data() - url.data()) + offset +
                           (slash == std::string_view::npos ? rest.size() : slash + 1);
  std::string_view key_text = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
  if (result.is_rir) {
    result.object_key = key_text.empty() ? to_octets(default_rir_name) : unescape(url, key_text, key_offset);
    return result;
  }
  if (slash == std::string_view::npos) throw_bad_url(url, "missing object key (expected '/<key>' after the address)");
  if (key_text.empty()) throw_bad_url(url, "empty object key after '/'");
  result.object_key = unescape(url, key_text, key_offset);
  return result;
}

std::string escape_key(std::span<const std::byte> key) {
  static constexpr char hex_digits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(key.size());
  for (std::byte b : key) {
    auto c = static_cast<char>(b);
    if (is_key_char(c)) {
      out += c;
    } else {
      auto u = static_cast<unsigned>(b);
      out += '%';
      out += hex_digits[u >> 4];
      out += hex_digits[u & 15];
    }
  }
  return out;
}

octets unescape_key(std::string_view text) { return unescape(text, text, 0); }

std::string to_corbaloc(const corbaloc& location) {
  std::string out(scheme);
  if (location.is_rir) {
    out += "rir:/";
    out += escape_key(location.object_key);
    return out;
  }
  bool first = true;
  for (const auto& address : location.addresses) {
    if (!first) out += ',';
    first = false;
    out += address.tls ? "ssliop:" : "iiop:";
    if (address.version) {
      out += std::to_string(address.version->major);
      out += '.';
      out += std::to_string(address.version->minor);
      out += '@';
    }
    bool ipv6 = address.host.find(':') != std::string::npos;
    if (ipv6) out += '[';
    out += address.host;
    if (ipv6) out += ']';
    out += ':';
    out += std::to_string(address.port);
  }
  out += '/';
  out += escape_key(location.object_key);
  return out;
}

std::string make_corbaloc(std::string_view host, std::uint16_t port, std::span<const std::byte> key,
                          std::optional<giop_version> version) {
  corbaloc location;
  location.addresses.push_back({version, std::string(host), port});
  location.object_key.assign(key.begin(), key.end());
  return to_corbaloc(location);
}

}  // namespace switchyard::iop
