// `--netns` and `--link`: the experiments across a real link between two hosts' network stacks.
// sy-bench makes three network namespaces, `sy-bench-<pid>-client` (this process and the clients
// it starts), `-server` (every server it starts) and `-naming` (omniNames), joined by veth pairs:
//
//   client 198.18.0.1 ---- 198.18.0.2 server       the measured link (tc shapes both ends with --link)
//   client 198.18.0.5 ---- 198.18.0.6 naming       naming answers on 198.18.1.1:2809 (its lo),
//   server 198.18.0.9 ---- 198.18.0.10 naming      routed from both sides
//
// (198.18.0.0/15 is the benchmarking range of RFC 2544; the namespaces are private, so the fixed
// addresses never meet another run's.) Our servers bind their references in omniNames and the
// experiment resolves them from there, so every reference the client uses has crossed the naming
// service. Everything made here is removed when the object is destroyed, and when sy-bench ends
// any other way (Ctrl-C, an exception, SIGKILL): a janitor process forked before anything is made
// waits on a pipe only sy-bench holds and cleans up when it closes.
#pragma once

#include <sys/types.h>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "benchmarks/sy_bench/driver_options.h"
#include "benchmarks/sy_bench/process.h"

namespace switchyard {
class orb;
}

namespace switchyard::bench {

// The tc command line (after `tc -n NS`) that shapes one end: tbf for a rate alone, netem for a
// rate and a delay. tbf's bucket holds 2 ms at the rate (at least 16 KB): small enough that the
// rate holds over milliseconds, large enough for the kernel's timer granularity.
std::vector<std::string> shaping_arguments(const link_shape& shape, const std::string& device);

class network_namespaces {
 public:
  static constexpr const char* client_address = "198.18.0.1";
  static constexpr const char* server_address = "198.18.0.2";
  static constexpr const char* naming_address = "198.18.1.1";
  static constexpr int naming_port = 2809;

  // Makes everything and moves this thread (call it before any other thread starts) into the
  // clients' namespace. `link`: "" or the --link text. Raises std::runtime_error with what is
  // missing: root, ip or tc, the kernel's netem for a delay, omniNames, CosNaming stubs.
  explicit network_namespaces(const std::string& link);
  ~network_namespaces();
  network_namespaces(const network_namespaces&) = delete;
  network_namespaces& operator=(const network_namespaces&) = delete;

  // corbaloc::198.18.1.1:2809/NameService
  std::string naming_url() const;
  // An ORB of this process (in the clients' namespace) for the naming lookups.
  const std::shared_ptr<switchyard::orb>& naming_orb() const noexcept { return naming_orb_; }
  // The namespaces' names, for messages and docs.
  const std::string& server_namespace() const noexcept { return server_; }

 private:
  void run(const std::vector<std::string>& argv);
  void tear_down() noexcept;

  std::string client_, server_, naming_;
  std::string data_dir_;
  int server_fd_ = -1, naming_fd_ = -1;
  int janitor_pipe_ = -1;
  pid_t janitor_ = -1;
  child_process omni_names_;
  std::shared_ptr<switchyard::orb> naming_orb_;
};

}  // namespace switchyard::bench
