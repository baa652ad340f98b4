#include "orb/ior/object_reference.h"

#include <functional>

#include "orb/ior/encapsulation.h"
#include "orb/ior/iiop_profile.h"
#include "orb/ior/uiop_profile.h"
#include "switchyard/exception.h"

namespace switchyard::iop {

namespace {

char lower(char c) noexcept { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool equals_ignoring_case(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) noexcept {
  return text.size() >= prefix.size() && equals_ignoring_case(text.substr(0, prefix.size()), prefix);
}

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

[[noreturn]] void throw_bad_url(std::string detail) {
  throw SystemException(SystemExceptionKind::BAD_PARAM, minor::bad_url, CompletionStatus::no, std::move(detail));
}

}  // namespace

std::string endpoint::to_string() const {
  if (kind == transport_kind::uiop) return "uiop://" + path;
  bool ipv6 = host.find(':') != std::string::npos;
  return (kind == transport_kind::ssliop ? "ssliop://" : "iiop://") + (ipv6 ? "[" + host + "]" : host) + ":" +
         std::to_string(port);
}

bool operator==(const endpoint& a, const endpoint& b) noexcept {
  if (a.kind != b.kind) return false;
  if (a.kind == transport_kind::uiop) return a.path == b.path;
  return a.port == b.port && equals_ignoring_case(a.host, b.host);
}

std::size_t endpoint_hash::operator()(const endpoint& e) const noexcept {
  // FNV-1a over the fields operator== compares.
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](unsigned char c) {
    h ^= c;
    h *= 1099511628211ull;
  };
  mix(static_cast<unsigned char>(e.kind));
  if (e.kind == transport_kind::uiop) {
    for (char c : e.path) mix(static_cast<unsigned char>(c));
  } else {
    for (char c : e.host) mix(static_cast<unsigned char>(lower(c)));
    mix(static_cast<unsigned char>(e.port >> 8));
    mix(static_cast<unsigned char>(e.port & 0xff));
  }
  return static_cast<std::size_t>(h);
}

std::vector<invocation_target> targets_of(const ior& reference) {
  std::vector<invocation_target> targets;
  bool tls_offered = false;
  for (std::size_t i = 0; i < reference.profiles.size(); ++i) {
    const auto& profile = reference.profiles[i];
    const std::string context = "IOR profile " + std::to_string(i + 1);
    if (profile.tag == tag_internet_iop) {
      iiop_profile iiop = detail::with_context(context, [&] { return decode_iiop_profile(profile.data); });
      for (const auto& component : iiop.components) {
        if (component.tag != tag_ssl_sec_trans) continue;
        const ssl_transport ssl = detail::with_context(context, [&] { return decode_ssl_transport(component); });
        if (ssl.port == 0) continue;
        targets.push_back({ssliop_endpoint(iiop.host, ssl.port), iiop.version, iiop.object_key, i, false});
        tls_offered = true;
      }
      if (iiop.port != 0)
        targets.push_back({iiop_endpoint(iiop.host, iiop.port), iiop.version, iiop.object_key, i, false});
      auto alternates = detail::with_context(context, [&] { return iiop.alternate_addresses(); });
      for (auto& alternate : alternates)
        targets.push_back(
            {iiop_endpoint(std::move(alternate.host), alternate.port), iiop.version, iiop.object_key, i, true});
    } else if (profile.tag == tag_uiop) {
      uiop_profile uiop = detail::with_context(context, [&] { return decode_uiop_profile(profile.data); });
      targets.push_back({uiop_endpoint(std::move(uiop.path)), uiop.version, std::move(uiop.object_key), i, false});
    }
  }
  if (tls_offered)
    for (auto& target : targets)
      if (target.where.kind != transport_kind::ssliop) target.tls_offered = true;
  return targets;
}

ior make_local_ior(std::string_view type_id, std::span<const endpoint> endpoints, std::span<const std::byte> object_key,
                   const local_ior_options& options) {
  if (endpoints.empty()) detail::throw_bad_ior_value("an IOR needs at least one endpoint");
  if (options.version.major != 1 || options.version.minor > 2)
    detail::throw_bad_ior_value("IIOP version must be 1.0, 1.1 or 1.2");
  component_list components;
  if (options.version.minor >= 1) {
    components.push_back(make_orb_type_component(options.orb_type));
    if (options.advertise_code_sets) components.push_back(make_code_sets_component(switchyard_code_sets()));
  }
  const octets key(object_key.begin(), object_key.end());
  const bool alternates_allowed = options.version.minor >= 2;

  ior reference;
  reference.type_id = type_id;
  std::optional<std::size_t> first_iiop;  // index in reference.profiles
  iiop_profile first_iiop_profile;
  const endpoint* first_plain = nullptr;
  for (const auto& e : endpoints)
    if (e.kind == transport_kind::iiop) {
      first_plain = &e;
      break;
    }
  auto ssl_component = [&](std::uint16_t port, bool tls_only) {
    std::uint16_t required = 0;
    if (tls_only) required = association_integrity | association_confidentiality;
    if (options.tls_requires_client_certificate) required |= association_trust_in_client;
    return make_ssl_transport_component({options.tls_supports, required, port});
  };
  std::vector<tagged_component> first_iiop_tls;  // TLS ports of the first iiop endpoint's host
  for (const auto& e : endpoints) {
    if (e.kind == transport_kind::ssliop) {
      if (e.host.empty()) detail::throw_bad_ior_value("ssliop endpoint without a host");
      if (options.version.minor < 1) continue;  // IIOP 1.0 profiles carry no components
      if (first_plain != nullptr && equals_ignoring_case(first_plain->host, e.host)) {
        first_iiop_tls.push_back(ssl_component(e.port, false));
        continue;
      }
      iiop_profile tls_only{options.version, e.host, 0, key, components};
      tls_only.components.push_back(ssl_component(e.port, true));
      reference.profiles.push_back(to_tagged_profile(tls_only));
      continue;
    }
  }
  for (const auto& e : endpoints) {
    if (e.kind == transport_kind::ssliop) continue;
    if (e.kind == transport_kind::uiop) {
      if (e.path.empty()) detail::throw_bad_ior_value("uiop endpoint without a path");
      reference.profiles.push_back(to_tagged_profile(uiop_profile{options.version, e.path, key, components}));
      continue;
    }
    if (e.host.empty()) detail::throw_bad_ior_value("iiop endpoint without a host");
    if (alternates_allowed && first_iiop) {
      first_iiop_profile.components.push_back(make_alternate_address_component({e.host, e.port}));
      continue;
    }
    iiop_profile profile{options.version, e.host, e.port, key, components};
    if (&e == first_plain)
      profile.components.insert(profile.components.end(), first_iiop_tls.begin(), first_iiop_tls.end());
    if (alternates_allowed) {
      first_iiop = reference.profiles.size();
      first_iiop_profile = profile;
    }
    reference.profiles.push_back(to_tagged_profile(profile));
  }
  // Alternates were added after the first IIOP profile was written: write it again.
  if (first_iiop) reference.profiles[*first_iiop] = to_tagged_profile(first_iiop_profile);
  if (reference.profiles.empty())
    detail::throw_bad_ior_value("no endpoint an IOR can name (ssliop needs IIOP 1.1 or later)");
  return reference;
}

ior ior_from_corbaloc(const corbaloc& location, giop_version default_version) {
  if (location.is_rir) throw_bad_url("corbaloc:rir: names an initial reference, resolved by the ORB, not an address");
  ior reference;
  for (const auto& address : location.addresses) {
    iiop_profile profile;
    profile.version = address.version.value_or(default_version);
    profile.host = address.host;
    profile.port = address.port;
    profile.object_key = location.object_key;
    if (address.tls) {
      // TLS only: port 0 and the TLS port in TAG_SSL_SEC_TRANS, which needs IIOP 1.1 or later.
      if (profile.version.minor < 1) profile.version.minor = 1;
      profile.port = 0;
      profile.components.push_back(make_ssl_transport_component(
          {association_integrity | association_confidentiality | association_trust_in_target,
           association_integrity | association_confidentiality, address.port}));
    }
    reference.profiles.push_back(to_tagged_profile(profile));
  }
  return reference;
}

object_string parse_object_string(std::string_view text) {
  std::string_view trimmed = text;
  while (!trimmed.empty() && is_space(trimmed.front())) trimmed.remove_prefix(1);
  object_string result;
  if (starts_with_ignoring_case(trimmed, "IOR:")) {
    result.reference = parse_ior_string(trimmed);
  } else if (starts_with_ignoring_case(trimmed, "corbaloc:")) {
    corbaloc location = parse_corbaloc(trimmed);
    if (location.is_rir) result.initial_reference = location.rir_name();
    else result.reference = ior_from_corbaloc(location);
  } else {
    std::string shown(trimmed.substr(0, 16));
    throw_bad_url("object string \"" + shown + (trimmed.size() > 16 ? "...\"" : "\"") +
                  " is neither an IOR ('IOR:...') nor a URL ('corbaloc:...')");
  }
  return result;
}

}  // namespace switchyard::iop
