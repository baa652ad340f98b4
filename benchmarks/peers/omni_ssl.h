// SSL (TLS) for the omniORB peers: --ssl DIR [--ssl-key FILE], through omniORB 4.2's SSL transport
// (libomnisslTP4, <omniORB4/sslContext.h>). DIR is what scripts/make-tls-certs writes.
//
// omniORB reads its SSL settings from sslContext's static members when CORBA::ORB_init loads the
// transport: the CA file the peer's certificate must chain to (DIR/ca.pem), and one PEM file
// holding this side's certificate AND its private key (DIR/omni-server.pem for a server,
// DIR/omni-client.pem for a client, or FILE). omniORB's default verify mode stays: each side
// sends its certificate and requires and verifies the other's (SSL_VERIFY_PEER |
// SSL_VERIFY_FAIL_IF_NO_PEER_CERT), so a client whose certificate does not chain to ca.pem is
// refused in the handshake (its call fails with TRANSIENT or COMM_FAILURE). omniORB checks no host
// name. A server listens for SSL with the endpoint giop:ssl:HOST:PORT; a client needs no option:
// an IOR carrying a TAG_SSL_SEC_TRANS component is reached over SSL.
//
// Without omniORB's SSL library at configure time (SWITCHYARD_OMNI_SSL undefined) --ssl is a
// usage error.
#pragma once

#include <omniORB4/CORBA.h>

#ifdef SWITCHYARD_OMNI_SSL
#include <omniORB4/sslContext.h>
#endif

#include <fstream>
#include <string>

namespace switchyard::bench {

struct omni_ssl_options {
  std::string dir;       // --ssl DIR; empty: no SSL
  std::string key_file;  // --ssl-key FILE; empty: DIR/<default key file>
};

// Sets sslContext's CA file, key file and (empty) key password; call before CORBA::ORB_init, once
// per process (the strings are static). default_key is "omni-server.pem" or "omni-client.pem".
// Returns an empty string on success, otherwise why not (a usage error).
inline std::string configure_omni_ssl(const omni_ssl_options& ssl, const char* default_key) {
  static std::string ca_file, key_file;
  ca_file = ssl.dir + "/ca.pem";
  key_file = ssl.key_file.empty() ? ssl.dir + "/" + default_key : ssl.key_file;
  for (const std::string* file : {&ca_file, &key_file}) {
    if (!std::ifstream(*file)) return "cannot read " + *file;
  }
#ifdef SWITCHYARD_OMNI_SSL
  sslContext::certificate_authority_file = ca_file.c_str();
  sslContext::key_file = key_file.c_str();
  sslContext::key_file_password = "";  // the key is not encrypted
  return {};
#else
  return "built without omniORB's SSL transport (libomnisslTP4 and libssl-dev at configure time)";
#endif
}

}  // namespace switchyard::bench
