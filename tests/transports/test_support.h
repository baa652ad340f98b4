// Helpers for the transports tests: loopback pairs, temporary directories, exception checks.
#pragma once

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "switchyard/exception.h"
#include "transports/transport.h"

namespace switchyard::transports::testing {

// A connected pair over one acceptor.
struct loopback_pair {
  std::unique_ptr<acceptor> listener;
  std::unique_ptr<connection> client;
  std::unique_ptr<connection> server;
};

inline loopback_pair open_pair(const std::string& where, const transport_options& options = {}) {
  loopback_pair pair;
  pair.listener = open_acceptor(where, options);
  pair.client = connect(pair.listener->local_endpoint(), options);
  pair.server = pair.listener->accept();
  return pair;
}

// A fresh directory under /tmp, removed with everything in it at the end of the scope.
class temp_dir {
 public:
  temp_dir() {
    char pattern[] = "/tmp/sy_transports_XXXXXX";
    if (::mkdtemp(pattern) != nullptr) path_ = pattern;
  }
  ~temp_dir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Whether this machine can listen on ::1 (containers sometimes lack IPv6).
inline bool have_ipv6_loopback() {
  try {
    auto probe = open_acceptor("iiop://[::1]:0");
    return true;
  } catch (const SystemException&) {
    return false;
  }
}

}  // namespace switchyard::transports::testing
