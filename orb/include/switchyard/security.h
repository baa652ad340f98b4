// Who may call: the identity a TLS peer's verified certificate gives it, and the access policy an
// object adapter may set on the callers of its objects (docs/orb.md, "TLS"). A request from a
// caller the policy does not allow gets NO_PERMISSION (minor::peer_not_allowed) without reaching
// the servant.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace switchyard {

// The peer at the other end of a TLS connection, as its certificate says, once the handshake has
// verified that certificate against the ORB's CAs.
struct peer_identity {
  std::string subject;                 // RFC 2253: "CN=switchyard-client,O=Switchyard Tests"
  std::string issuer;                  // the same form
  std::string common_name;             // the subject's CN (the last one), or empty
  std::vector<std::string> alt_names;  // subjectAltName: "DNS:localhost", "IP:127.0.0.1", ...
  std::vector<std::uint8_t> der;       // the certificate itself (OpenSSL's d2i_X509 reads it)
};

// Who may call the objects of an adapter. A caller is let in when it is collocated (a call from
// this process) and allow_collocated says so, or when it has a verified certificate whose
// subject is one of allowed_subjects, whose common name is one of allowed_common_names, or that
// `allow` accepts. A plain (non-TLS) caller, or a TLS caller without a certificate, is refused.
struct access_policy {
  std::vector<std::string> allowed_subjects;
  std::vector<std::string> allowed_common_names;
  std::function<bool(const peer_identity&)> allow;  // called in the serving thread; must not block long
  bool allow_collocated = true;
};

// The verified identity of whoever made the request this thread is serving: nullptr for a plain
// or anonymous TLS peer, a collocated call, or outside a servant.
const peer_identity* current_caller() noexcept;

}  // namespace switchyard
