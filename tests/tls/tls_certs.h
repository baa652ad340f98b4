// The TLS test certificates (scripts/make-tls-certs), made once per test process into a fresh
// temporary directory and removed at exit. SY_MAKE_TLS_CERTS names the script (meson sets it).
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace test {

class tls_certs {
 public:
  static const tls_certs& get() {
    static const tls_certs made;
    return made;
  }
  std::string operator[](const std::string& name) const { return (directory_ / name).string(); }

  // -ORB options for a server with `name`.pem/.key that trusts ca.pem, and for a client.
  std::vector<std::string> server_options(const std::string& name = "server",
                                          const std::string& clients = "require") const {
    return {"-ORBTLSCertificate", (*this)[name + ".pem"], "-ORBTLSPrivateKey",         (*this)[name + ".key"],
            "-ORBTLSCAFile",      (*this)["ca.pem"],      "-ORBTLSClientCertificates", clients};
  }
  std::vector<std::string> client_options(const std::string& name = "client") const {
    std::vector<std::string> options{"-ORBTLSCAFile", (*this)["ca.pem"]};
    if (!name.empty()) {
      options.insert(options.end(), {"-ORBTLSCertificate", (*this)[name + ".pem"]});
      options.insert(options.end(), {"-ORBTLSPrivateKey", (*this)[name + ".key"]});
    }
    return options;
  }

  tls_certs(const tls_certs&) = delete;
  tls_certs& operator=(const tls_certs&) = delete;

 private:
  tls_certs() {
    const char* script = std::getenv("SY_MAKE_TLS_CERTS");
    if (script == nullptr) throw std::runtime_error("SY_MAKE_TLS_CERTS is not set (meson sets it)");
    directory_ = std::filesystem::temp_directory_path() / ("sy_tls_" + std::to_string(::getpid()));
    const std::string command = std::string(script) + " '" + directory_.string() + "' >/dev/null 2>&1";
    if (std::system(command.c_str()) != 0) throw std::runtime_error("scripts/make-tls-certs failed");
  }
  ~tls_certs() {
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
  }
  std::filesystem::path directory_;
};

}  // namespace test
